//go:build unix

package mcp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/mcp/mcpschema"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// turnCase is one turn played against server-everything, and what its
// trace must show.
type turnCase struct {
	name  string
	turn  target.Turn
	check func(t *testing.T, tt *trace.Turn, c *trace.ToolCall)
}

var everythingCases = []turnCase{
	{"echo", call("echo", `{"message": "hello"}`), func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		if got := path(t, c, "content", 0, "text"); got != "Echo: hello" {
			t.Errorf("content[0].text = %v, want %q", got, "Echo: hello")
		}
	}},
	{"get-sum", call("get-sum", `{"a": 2, "b": 3}`), func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		if got, _ := path(t, c, "content", 0, "text").(string); !strings.Contains(got, "is 5") {
			t.Errorf("content[0].text = %q, want the sum 5", got)
		}
		if c.Args != `{"a": 2, "b": 3}` || !c.ArgsJSON {
			t.Errorf("Args = %q (json %v), want the arguments as given", c.Args, c.ArgsJSON)
		}
	}},
	{"structured content", call("get-structured-content", `{"location": "Chicago"}`), func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		if got := path(t, c, "structuredContent", "temperature"); got != 36.0 {
			t.Errorf("structuredContent.temperature = %v, want 36", got)
		}
		if got, _ := path(t, c, "content", 0, "text").(string); !strings.Contains(got, `"temperature":36`) {
			t.Errorf("content[0].text = %q, want the weather as JSON text", got)
		}
	}},
	{"unknown tool", call("no-such-tool", `{}`), func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantFailed(t, c, "no-such-tool")
	}},
	{"invalid arguments", call("get-sum", `{"a": "two", "b": 3}`), func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantFailed(t, c, "")
	}},
	{"no arguments", target.Turn{Type: target.TurnMCPCall, Tool: "get-tiny-image"}, func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		if c.Args != "{}" {
			t.Errorf("Args = %q, want {}", c.Args)
		}
	}},
	{"progress", call("trigger-long-running-operation", `{"duration": 0.6, "steps": 3}`), func(t *testing.T, tt *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		var progress []trace.Event
		for _, e := range tt.Events {
			if e.Type == EventProgress {
				progress = append(progress, e)
			}
		}
		if len(progress) != 3 {
			t.Fatalf("%d %s events, want 3 (events %v)", len(progress), EventProgress, types(tt))
		}
		if c.StartSeq != progress[0].Seq || c.ResultSeq <= progress[2].Seq || c.EndSeq != c.ResultSeq {
			t.Errorf("seqs start %d end %d result %d, want the first progress, then the result after the last (%d)", c.StartSeq, c.EndSeq, c.ResultSeq, progress[2].Seq)
		}
		if d := c.EndedMs - c.StartedMs; d < 500 {
			t.Errorf("the call took %d ms, want at least 500 (0.6 s asked)", d)
		}
		if tt.Runs[0].FirstEventMs != progress[0].ReceivedMs || progress[0].ReceivedMs-c.StartedMs < 150 {
			t.Errorf("first event at %d ms after the start, want the first progress, ~200 ms in", progress[0].ReceivedMs-c.StartedMs)
		}
	}},
	{"list tools", target.Turn{Type: target.TurnMCPList}, func(t *testing.T, tt *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		if c.Name != trace.ListToolsCall || c.Args != "{}" {
			t.Errorf("call %s(%s), want %s({})", c.Name, c.Args, trace.ListToolsCall)
		}
		var list struct {
			Tools []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal([]byte(c.Result.Content), &list); err != nil {
			t.Fatalf("result: %v", err)
		}
		var names []string
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		for _, want := range []string{"echo", "get-sum", "get-structured-content", "trigger-long-running-operation"} {
			if !slices.Contains(names, want) {
				t.Errorf("tools %v lack %s", names, want)
			}
		}
		if bad := mcpschema.InvalidSchemas([]byte(c.Result.Content)); len(bad) > 0 {
			t.Errorf("InvalidSchemas = %q, want none", bad)
		}
		if got := types(tt); !slices.Equal(got, []string{EventList}) {
			t.Errorf("events %v, want one %s", got, EventList)
		}
	}},
}

// TestEverything plays every case, in one session per transport, against
// the reference server.
func TestEverything(t *testing.T) {
	transports := []struct {
		name string
		opts func(t *testing.T) Options
	}{
		{"stdio", stdioOptions},
		{"streamable http", func(t *testing.T) Options {
			return Options{Transport: TransportHTTP, Endpoint: startHTTP(t, "streamableHttp") + "/mcp"}
		}},
		{"sse", func(t *testing.T) Options {
			return Options{Transport: TransportSSE, Endpoint: startHTTP(t, "sse") + "/sse"}
		}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			o := tr.opts(t)
			o.Timeout = 2 * time.Minute // met only by a hung server, never a busy machine
			s, err := Dial(t.Context(), o)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}()
			src := s.Source()
			if src.Adapter != "mcp" || src.Version == "" || src.Mode != "live" {
				t.Errorf("Source() = %+v, want mcp, a protocol version, live", src)
			}
			rec := trace.NewRecorder()
			for i, tc := range everythingCases {
				rec.StartTurn(i, tc.turn.Type, "", time.Now())
				err := s.Turn(t.Context(), tc.turn, rec)
				tt := rec.EndTurn(time.Now(), nil)
				t.Run(tc.name, func(t *testing.T) {
					if err != nil {
						t.Fatalf("Turn: %v", err)
					}
					if len(tt.Runs) != 1 || len(tt.ToolCalls) != 1 {
						t.Fatalf("%d runs, %d calls; want one of each", len(tt.Runs), len(tt.ToolCalls))
					}
					if !json.Valid(tt.Runs[0].Request) {
						t.Errorf("run request %q is not JSON", tt.Runs[0].Request)
					}
					tc.check(t, tt, &tt.ToolCalls[0])
				})
			}
		})
	}
}

func wantOK(t *testing.T, c *trace.ToolCall) {
	t.Helper()
	if c.Result == nil {
		t.Fatal("no result")
	}
	if c.Result.Error != "" || !c.Result.JSON {
		t.Fatalf("result %s (error %q, json %v), want a JSON success", c.Result.Content, c.Result.Error, c.Result.JSON)
	}
	if c.ResultSeq == 0 || c.EndedMs < c.StartedMs || c.TimestampMs != c.EndedMs {
		t.Errorf("result seq %d, started %d ended %d timestamp %d", c.ResultSeq, c.StartedMs, c.EndedMs, c.TimestampMs)
	}
}

func wantFailed(t *testing.T, c *trace.ToolCall, mention string) {
	t.Helper()
	if c.Result == nil {
		t.Fatal("no result")
	}
	if c.Result.Error == "" || !c.Result.JSON {
		t.Fatalf("result %s (error %q), want a JSON failure", c.Result.Content, c.Result.Error)
	}
	if !strings.Contains(c.Result.Error, mention) {
		t.Errorf("error %q does not mention %q", c.Result.Error, mention)
	}
	t.Logf("content %s; error %q", c.Result.Content, c.Result.Error)
}

// path reads a member of a call's JSON result: keys and indexes.
func path(t *testing.T, c *trace.ToolCall, keys ...any) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(c.Result.Content), &v); err != nil {
		t.Fatalf("result %q: %v", c.Result.Content, err)
	}
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}
