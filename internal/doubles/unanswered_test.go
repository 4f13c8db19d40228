package doubles

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
)

// TestServeUnanswered: a tool the test gives no answer is answered with
// an MCP error that names it and the test, and recorded as unanswered; a
// tool the doubles do not declare gets the SDK's error and is recorded
// the same way.
func TestServeUnanswered(t *testing.T) {
	board := backend.NewBoard(false, func(string) bool { return true })
	url := serveOver(t, board, newStepClock().Now)
	bd := board.Bind("tests/none")
	defer bd.Release()
	cs := connect(t, url, "", nil)
	defer cs.Close()

	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "place_order", Arguments: map[string]any{"sku": "A-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !res.IsError || text != "no answer for tool place_order in test tests/none" {
		t.Errorf("unanswered call: isError %v, %q", res.IsError, text)
	}
	_, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "refund"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "refund"`) {
		t.Errorf("undeclared tool: %v, want the SDK's unknown tool error", err)
	}
	calls, _ := bd.Take(0)
	if len(calls) != 2 {
		t.Fatalf("recorded %+v, want 2 calls", calls)
	}
	for i, want := range []string{"no answer for tool place_order in test tests/none", `unknown tool "refund": the doubles declare no such tool`} {
		c := calls[i]
		if c.Served == nil || !c.Served.Unanswered || c.Served.Answer != "" || c.Result == nil || c.Result.Error != want {
			t.Errorf("call %d: served %+v, result %+v; want unanswered with %q", i, c.Served, c.Result, want)
		}
	}
	if calls[1].Args != "{}" || !calls[1].ArgsJSON {
		t.Errorf("a call without arguments is recorded with %q", calls[1].Args)
	}
}

// TestServeOrphan: a call no attempt takes — none bound, or a header that
// names none — is answered with an MCP error saying why, and kept as an
// orphan of the board.
func TestServeOrphan(t *testing.T) {
	board := backend.NewBoard(true, func(string) bool { return true })
	url := serveOver(t, board, newStepClock().Now)
	bd := board.Bind("a")
	defer bd.Release()
	for _, tc := range []struct{ token, why string }{
		{"", "the request carried no Ananke-Test header (backend.forward_test_header is set)"},
		{"a99", `no test attempt is running as Ananke-Test: "a99"`},
	} {
		cs := connect(t, url, tc.token, nil)
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "check_stock", Arguments: map[string]any{"sku": "A-1"}})
		cs.Close()
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].(*sdk.TextContent).Text; !res.IsError || !strings.HasSuffix(text, tc.why) {
			t.Errorf("token %q: isError %v, %q; want it to end with %q", tc.token, res.IsError, text, tc.why)
		}
	}
	orphans := board.Orphans()
	if len(orphans) != 2 || orphans[0].What != "tools/call check_stock" || orphans[1].Why != `no test attempt is running as Ananke-Test: "a99"` {
		t.Errorf("orphans: %+v", orphans)
	}
	if calls, _ := bd.Take(0); len(calls) != 0 {
		t.Errorf("the bound attempt got %+v", calls)
	}
}
