package decl

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/doubles/decl/decltest"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// TestReadValid: what the valid case declares is read as written —
// results as JSON in the file's key order, a result file compacted,
// strings taken literally — and the test's plan holds its own answers
// and its turns'.
func TestReadValid(t *testing.T) {
	c, p, diags := loadCase(t, "testdata/read/valid")
	if len(diags) > 0 {
		t.Fatalf("valid case: %v", diags)
	}
	if c.Listen.Raw != "127.0.0.1:4390" || c.Path != "/tools" || len(c.Tools) != 3 {
		t.Fatalf("config: listen %q, path %q, %d tools", c.Listen.Raw, c.Path, len(c.Tools))
	}
	stock := c.Tool("check_stock")
	for _, tc := range []struct{ what, got, want string }{
		{"input schema", string(stock.InputSchema), `{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}`},
		{"default result", string(stock.Answer.Reply.Result), `{"sku":"A-1","in_stock":4}`},
		{"match args", string(stock.Answer.Match[0].Args), `{"sku":"B-2"}`},
		{"result file", string(stock.Answer.Match[1].Reply.Result), `{"sku":"C-3","in_stock":12}`},
		{"error result", string(stock.Answer.Match[2].Reply.Result), `"the warehouse is closed"`},
		{"fault", stock.Answer.Match[3].Reply.Fault, FaultTimeout},
		{"no schema", string(c.Tool("place_order").InputSchema), `{"type":"object"}`},
		{"literal string", string(c.Tool("search.docs").Answer.Reply.Result), `"${NOT_A_VARIABLE} is text"`},
		{"test answer", string(p.Test["place_order"].Reply.Result), `{"order":42}`},
		{"turn fault", p.Turns[1]["place_order"].Reply.Fault, FaultDrop},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	if stock.Answer.Reply.LatencyMs != 200 || !stock.Answer.Match[2].Reply.IsError {
		t.Errorf("latency %d, is_error %v", stock.Answer.Reply.LatencyMs, stock.Answer.Match[2].Reply.IsError)
	}
	if c.Tool("place_order").Answer != nil || c.Tool("place_order").OutputSchema != nil {
		t.Errorf("place_order has no default answer nor output schema")
	}
	if _, ok := p.Turns[0]; ok || len(p.Turns) != 1 {
		t.Errorf("turns with answers: %v, want turn 1 only", p.Turns)
	}
}

// TestAddr: the address to listen on is read from the environment when
// the run starts, and checked then.
func TestAddr(t *testing.T) {
	var diags diag.Diagnostics
	d := &decode.Decoder{File: "c.yaml", Diags: &diags}
	root := d.ParseBytes([]byte("doubles:\n  listen: \"${ENV.LISTEN}\"\n  tools: [{name: t}]\n"))
	c := ReadConfig(d, decltest.Member(root, "doubles"))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, tc := range []struct{ env, addr, err string }{
		{"0.0.0.0:4390", "0.0.0.0:4390", ""},
		{"", "", "c.yaml:2:11: doubles.listen: environment variable LISTEN is not set (referenced as ${ENV.LISTEN})"},
		{"4390", "", `c.yaml:2:11: doubles.listen: "4390" is not host:port`},
	} {
		addr, err := c.Addr(func(name string) (string, bool) { return tc.env, name == "LISTEN" && tc.env != "" })
		if addr != tc.addr || (err == nil) != (tc.err == "") || (err != nil && !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("LISTEN=%q: %q, %v; want %q, %s", tc.env, addr, err, tc.addr, tc.err)
		}
	}
	if got := c.URL("127.0.0.1:4390"); got != "http://127.0.0.1:4390/mcp" {
		t.Errorf("URL: %s", got)
	}
}
