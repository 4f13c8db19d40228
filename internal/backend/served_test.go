package backend

import (
	"testing"

	"github.com/ananke/action/internal/trace"
)

// TestServed: a streamed call is the doubles' when they answered the same
// tool (by its name, or prefixed by a server's) with equal arguments in
// the same turn.
func TestServed(t *testing.T) {
	bd := NewBoard(false, nil).Bind("t")
	bd.AddCallIn(1, trace.ToolCall{Name: "check_stock", Args: `{"sku": "A-1"}`, Served: &trace.Served{By: "doubles", Tool: "check_stock"}})
	bd.AddCallIn(1, trace.ToolCall{Name: "ping", Served: &trace.Served{By: "doubles", Tool: "ping"}})
	for _, tt := range []struct {
		turn       int
		name, args string
		want       bool
	}{
		{1, "check_stock", `{"sku":"A-1"}`, true},
		{1, "inventory_check_stock", `{"sku":"A-1"}`, true},
		{1, "inventory.check_stock", `{ "sku" : "A-1" }`, true},
		{1, "check_stock", `{"sku":"B-2"}`, false},  // other arguments
		{0, "check_stock", `{"sku":"A-1"}`, false},  // another turn
		{1, "xcheck_stock", `{"sku":"A-1"}`, false}, // no separator
		{1, "ping", "", true},                       // no arguments is {}
		{1, "ping", "{}", true},
		{1, "delete_order", "{}", false},
	} {
		if got := bd.Served(tt.turn, tt.name, tt.args); got != tt.want {
			t.Errorf("Served(%d, %q, %s) = %v, want %v", tt.turn, tt.name, tt.args, got, tt.want)
		}
	}
}
