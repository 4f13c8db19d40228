//go:build unix

package mcp

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/interop/peer"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// mcpGo builds testdata/interop/mcp-go, an MCP server written with
// github.com/mark3labs/mcp-go, and returns its binary.
func mcpGo(t *testing.T) string {
	t.Helper()
	return peer.GoBuild(t, "mcp-go")
}

// statuses records the status of every HTTP response a session got.
type statuses struct {
	mu  sync.Mutex
	got []int
}

func (s *statuses) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		s.mu.Lock()
		s.got = append(s.got, resp.StatusCode)
		s.mu.Unlock()
	}
	return resp, err
}

func (s *statuses) saw(code int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.got, code)
}

var mcpGoCases = []turnCase{
	{"echo", call("echo", `{"message": "hello"}`), func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		if got := path(t, c, "content", 0, "text"); got != "Echo: hello" {
			t.Errorf("content[0].text = %v, want %q", got, "Echo: hello")
		}
	}},
	{"add", call("add", `{"a": 2, "b": 3}`), func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		if got := path(t, c, "content", 0, "text"); got != "2 + 3 = 5" {
			t.Errorf("content[0].text = %v, want %q", got, "2 + 3 = 5")
		}
	}},
	{"isError", call("fail", `{}`), func(t *testing.T, tt *trace.Turn, c *trace.ToolCall) {
		wantFailed(t, c, "the tool failed on purpose")
		if got := types(tt); !slices.Equal(got, []string{EventResult}) {
			t.Errorf("events %v, want one %s", got, EventResult)
		}
	}},
	// mcp-go answers an unknown tool with JSON-RPC error -32602; over HTTP
	// at protocol 2026-07-28 with status 400. Either way it is the call's
	// failed result, not an error of the turn.
	{"unknown tool", call("no-such-tool", `{}`), func(t *testing.T, tt *trace.Turn, c *trace.ToolCall) {
		wantFailed(t, c, "JSON-RPC error -32602: tool 'no-such-tool' not found")
		if !strings.HasPrefix(c.Result.Content, `{"error":{"code":-32602,`) {
			t.Errorf("content %s, want the JSON-RPC error object", c.Result.Content)
		}
		if got := types(tt); !slices.Equal(got, []string{EventError}) {
			t.Errorf("events %v, want one %s", got, EventError)
		}
	}},
	{"list tools", target.Turn{Type: target.TurnMCPList}, func(t *testing.T, _ *trace.Turn, c *trace.ToolCall) {
		wantOK(t, c)
		for _, name := range []string{"echo", "add", "fail"} {
			if !strings.Contains(c.Result.Content, `"name":"`+name+`"`) {
				t.Errorf("tools %s lack %s", c.Result.Content, name)
			}
		}
	}},
}

// TestMCPGo plays the cases against mcp-go's server, over stdio and over
// streamable HTTP, in one session each.
func TestMCPGo(t *testing.T) {
	bin := mcpGo(t)
	for _, tr := range []string{TransportStdio, TransportHTTP} {
		t.Run(tr, func(t *testing.T) {
			t.Parallel()
			// Two minutes: only a hung peer meets them, never a busy machine.
			o := Options{Transport: tr, Command: []string{bin, "stdio"}, Timeout: 2 * time.Minute}
			seen := &statuses{}
			if tr == TransportHTTP {
				o = Options{Transport: tr, Endpoint: peer.MustStart(t, t.TempDir(), nil, bin, "http").URL + "/mcp",
					Timeout: 2 * time.Minute, HTTP: &http.Client{Transport: seen}}
			}
			s, err := Dial(t.Context(), o)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}()
			if v := s.Source().Version; v != "2026-07-28" {
				t.Errorf("protocol version %q, want 2026-07-28 (where a JSON-RPC error comes with HTTP 400)", v)
			}
			rec := trace.NewRecorder()
			for i, tc := range mcpGoCases {
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
					tc.check(t, tt, &tt.ToolCalls[0])
				})
			}
			if tr == TransportHTTP && !seen.saw(http.StatusBadRequest) {
				t.Errorf("HTTP statuses %v: the unknown tool was not answered with 400, the edge this test is for", seen.got)
			}
		})
	}
}
