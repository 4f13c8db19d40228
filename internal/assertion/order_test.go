package assertion

import (
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

func orderOf(tools ...string) Check {
	var o Order
	for _, t := range tools {
		o.Tools = append(o.Tools, name(t))
	}
	return Check{Kind: KindOrder, Payload: o}
}

func TestOrder(t *testing.T) {
	checkout := orderOf("validate_cart", "get_shipping_options", "charge_card")
	interleaved := scopeOf(turnOf("",
		call("c1", "validate_cart", "{}", seqAt(10)),
		call("c2", "search", "{}", seqAt(12)),
		call("c3", "get_shipping_options", "{}", seqAt(14)),
		call("c4", "validate_cart", "{}", seqAt(16)),
		call("c5", "charge_card", "{}", seqAt(18)),
	))
	// Listed in one order, started in another: the start decides.
	bySeq := scopeOf(turnOf("", call("c1", "b", "{}", seqAt(20)), call("c2", "a", "{}", seqAt(10))))
	byMs := scopeOf(turnOf("", call("c1", "b", "{}", at(2000)), call("c2", "a", "{}", at(1500))))
	test := trace.Trace{Turns: []trace.Turn{turnOf("", call("c1", "a", "{}", seqAt(3))), turnOf("", call("c2", "b", "{}", seqAt(9), inTurn(1)))}}
	acrossTurns := test.TestScope()
	runCases(t, []evalCase{
		{"interleaved and repeated calls", checkout, interleaved, status.Pass, "first calls follow the order `validate_cart` → `get_shipping_options` → `charge_card`"},
		{"by start sequence", orderOf("a", "b"), bySeq, status.Pass, ""},
		{"by start time without sequence numbers", orderOf("a", "b"), byMs, status.Pass, ""},
		{"by start time, reversed", orderOf("b", "a"), byMs, status.Fail, "`a` (call c2 in turn[0]) started before `b` (call c1 in turn[0])"},
		{"across turns", orderOf("a", "b"), acrossTurns, status.Pass, ""},
		{"two never called", orderOf("a", "x", "y"), bySeq, status.Fail, "`x` and `y` were never called (calls in turn[0]: b, a)"},
		{"no calls", orderOf("a", "b"), scopeOf(turnOf("")), status.Fail, "(no tool calls in turn[0])"},
	})
	outOfOrder := scopeOf(turnOf("",
		call("c1", "validate_cart", "{}", seqAt(1)),
		call("c3", "charge_card", "{}", seqAt(3)),
		call("c5", "get_shipping_options", "{}", seqAt(5)),
	))
	runExact(t, []exactCase{
		{"out of order", checkout, outOfOrder, status.Fail,
			"`charge_card` (call c3 in turn[0]) started before `get_shipping_options` (call c5 in turn[0]), but the order puts it after"},
		{"never called", orderOf("validate_cart", "refund"), outOfOrder, status.Fail,
			"order `validate_cart` → `refund`: `refund` was never called (calls in turn[0]: validate_cart, charge_card, get_shipping_options)"},
	})
	r := evalOne(t, checkout, outOfOrder)
	if len(r.Evidence) != 2 || r.Evidence[0].Call.ID != "c3" || r.Evidence[1].Call.ID != "c5" || !hasRefs(r, 3, 5) || hasRefs(r, 1) {
		t.Errorf("evidence %s, refs %v; want the two calls out of order", notes(r), r.EventRefs)
	}
	if want := "first calls: `validate_cart` at call c1 in turn[0], `get_shipping_options` at call c5 in turn[0], `charge_card` at call c3 in turn[0]"; r.Observed != want {
		t.Errorf("Observed = %q, want %q", r.Observed, want)
	}
}

// TestStartsBefore pins the comparison every ordering check uses.
func TestStartsBefore(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b trace.ToolCall
		want bool
	}{
		{"sequence numbers", call("a", "t", "{}", seqAt(5), at(9000)), call("b", "t", "{}", seqAt(6), at(1000)), true},
		{"time when a sequence number is missing", call("a", "t", "{}", at(9000)), call("b", "t", "{}", seqAt(6), at(1000)), false},
		{"list order when nothing else differs", call("a", "t", "{}"), call("b", "t", "{}"), true},
	} {
		calls := []trace.ToolCall{tc.a, tc.b}
		if got := startsBefore(calls, 0, 1); got != tc.want {
			t.Errorf("%s: startsBefore = %v, want %v", tc.name, got, tc.want)
		}
	}
}
