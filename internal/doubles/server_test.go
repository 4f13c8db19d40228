package doubles

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

// serveOver starts the fixture's doubles over the network for a board.
func serveOver(t testing.TB, board *backend.Board, now func() time.Time) string {
	t.Helper()
	c, plans := serverFixture(t)
	s := NewServer(c, board, plans, Options{Now: now})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { s.Close(); ts.Close() })
	return ts.URL + c.Path
}

// TestServeAnswers plays calls of one attempt of test "a", running alone
// (no header), through an MCP client: each answer reaches the agent as
// the SDK reads it, and each call is recorded in its turn with its
// arguments, the result sent, the clock's times and the answer chosen.
func TestServeAnswers(t *testing.T) {
	board := backend.NewBoard(false, func(string) bool { return true })
	url := serveOver(t, board, newStepClock().Now)
	bd := board.Bind("a")
	defer bd.Release()
	cs := connect(t, url, "", nil)
	defer cs.Close()

	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "check_stock cut garbled hang place_order slow" {
		t.Errorf("tools listed: %s", got)
	}
	schema, _ := json.Marshal(tools.Tools[0].InputSchema)
	out, _ := json.Marshal(tools.Tools[0].OutputSchema)
	if string(schema) != `{"properties":{"sku":{"type":"string"}},"required":["sku"],"type":"object"}` || !strings.Contains(string(out), `"in_stock"`) || tools.Tools[0].Description != "Stock level of a product" {
		t.Errorf("check_stock listed as %s, output %s, %q", schema, out, tools.Tools[0].Description)
	}

	type call struct {
		turn    int
		tool    string
		args    map[string]any
		text    string // the first text content the agent got
		struc   string // its structured content, as JSON ("" for none)
		isError bool
		answer  string
	}
	calls := []call{
		{0, "check_stock", map[string]any{"sku": "A-1"}, `{"sku":"A-1","in_stock":4}`, `{"sku":"A-1","in_stock":4}`, false, "config"},
		{0, "check_stock", map[string]any{"sku": "B-2"}, `{"sku":"B-2","in_stock":0}`, `{"sku":"B-2","in_stock":0}`, false, "config.match[0]"},
		{0, "check_stock", map[string]any{"sku": "X"}, "the warehouse is closed", "", true, "config.match[1]"},
		{0, "place_order", map[string]any{"sku": "A-1"}, `{"order":1,"test":"a"}`, `{"order":1,"test":"a"}`, false, "test"},
		{1, "check_stock", map[string]any{"sku": "B-2"}, `{"sku":"turn","in_stock":1}`, `{"sku":"turn","in_stock":1}`, false, "turn[1]"},
	}
	for _, c := range calls {
		bd.SetTurn(c.turn)
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s %v: %v", c.tool, c.args, err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		struc := ""
		if res.StructuredContent != nil {
			b, _ := json.Marshal(res.StructuredContent)
			struc = string(b)
		}
		if text != c.text || struc != sorted(c.struc) || res.IsError != c.isError {
			t.Errorf("%s %v: got %q, structured %s, isError %v; want %q, %s, %v", c.tool, c.args, text, struc, res.IsError, c.text, c.struc, c.isError)
		}
	}
	got0, _ := bd.Take(0)
	got1, _ := bd.Take(1)
	got := append(got0, got1...)
	if len(got) != len(calls) {
		t.Fatalf("recorded %d calls, want %d: %+v", len(got), len(calls), got)
	}
	for i, c := range calls {
		g := got[i]
		args, _ := json.Marshal(c.args)
		if g.Name != c.tool || g.Args != string(args) || !g.ArgsJSON || g.Turn != c.turn || g.ID == "" {
			t.Errorf("call %d: %s(%s) turn %d id %q, want %s(%s) turn %d", i, g.Name, g.Args, g.Turn, g.ID, c.tool, args, c.turn)
		}
		want := trace.Served{By: "doubles", Tool: c.tool, Answer: c.answer}
		if g.Served == nil || *g.Served != want {
			t.Errorf("call %d served %+v, want %+v", i, g.Served, want)
		}
		// Two readings of the step clock: the call's arrival and its end.
		if g.EndedMs-g.StartedMs != 1 || g.TimestampMs != g.EndedMs {
			t.Errorf("call %d: started %d, ended %d, timestamp %d", i, g.StartedMs, g.EndedMs, g.TimestampMs)
		}
		if g.Result == nil || !g.Result.JSON || !strings.Contains(g.Result.Content, `"content":[{"type":"text"`) {
			t.Fatalf("call %d result %+v", i, g.Result)
		}
		if c.isError != (g.Result.Error != "") || (c.isError && g.Result.Error != c.text) {
			t.Errorf("call %d: error %q, want isError %v", i, g.Result.Error, c.isError)
		}
	}
}

// sorted is JSON with its object keys sorted, as a client's map gives it.
func sorted(js string) string {
	if js == "" {
		return ""
	}
	var v any
	_ = json.Unmarshal([]byte(js), &v)
	b, _ := json.Marshal(v)
	return string(b)
}
