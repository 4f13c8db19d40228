package doubles

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/inprocess"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

// TestServeTiming plays, in a synctest bubble (the doubles served in
// process, so the clock moves only when every goroutine waits), what
// takes time: a latency is waited exactly; a client that gives up during
// it gets no result; a timeout fault holds the call until the client
// gives up, or until Hold, then closes the connection unanswered.
func TestServeTiming(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tool     string
		deadline time.Duration // the client's; 0 for none
		// closeAfter closes the server that long into the call (0: never).
		closeAfter time.Duration
		took       time.Duration
		answered   bool
		served     trace.Served
	}{
		{"latency", "slow", 0, 0, 200 * time.Millisecond, true, trace.Served{By: "doubles", Tool: "slow", Answer: "config", LatencyMs: 200}},
		{"gave up during latency", "slow", 50 * time.Millisecond, 0, 50 * time.Millisecond, false, trace.Served{By: "doubles", Tool: "slow", Answer: "config", LatencyMs: 200}},
		{"timeout", "hang", 3 * time.Second, 0, 3 * time.Second, false, trace.Served{By: "doubles", Tool: "hang", Answer: "config fault:timeout"}},
		{"timeout held to its bound", "hang", 0, 0, time.Minute, false, trace.Served{By: "doubles", Tool: "hang", Answer: "config fault:timeout"}},
		{"timeout ended by Close", "hang", 0, 5 * time.Second, 5 * time.Second, false, trace.Served{By: "doubles", Tool: "hang", Answer: "config fault:timeout"}},
		{"latency ended by Close", "slow", 0, 20 * time.Millisecond, 20 * time.Millisecond, false, trace.Served{By: "doubles", Tool: "slow", Answer: "config", LatencyMs: 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				board := backend.NewBoard(false, func(string) bool { return true })
				c, plans := serverFixture(t)
				s := NewServer(c, board, plans, Options{Now: time.Now, Hold: time.Minute})
				defer s.Close()
				bd := board.Bind("a")
				defer bd.Release()
				cs := connect(t, "http://doubles.test"+c.Path, "", inprocess.Transport(s.Handler()))
				defer cs.Close()

				ctx := t.Context()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				if tc.closeAfter > 0 {
					time.AfterFunc(tc.closeAfter, s.Close)
				}
				start := time.Now()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: map[string]any{}})
				if took := time.Since(start); took != tc.took {
					t.Errorf("the call took %v, want %v", took, tc.took)
				}
				if (err == nil) != tc.answered {
					t.Fatalf("answered: %+v, %v; want answered %v", res, err, tc.answered)
				}
				synctest.Wait() // the server has recorded the call
				calls, _ := bd.Take(0)
				if len(calls) != 1 {
					t.Fatalf("recorded %+v", calls)
				}
				got := calls[0]
				if *got.Served != tc.served {
					t.Errorf("served %+v, want %+v", *got.Served, tc.served)
				}
				switch {
				case tc.answered && (got.Result == nil || got.EndedMs-got.StartedMs != tc.took.Milliseconds()):
					t.Errorf("recorded result %+v, from %d to %d", got.Result, got.StartedMs, got.EndedMs)
				case !tc.answered && (got.Result != nil || got.EndedMs != 0):
					t.Errorf("a call the agent got no answer to is recorded with %+v, ended %d", got.Result, got.EndedMs)
				}
			})
		})
	}
}

// TestCallKeepsItsTurn: a call is recorded in the turn that was playing
// when it arrived, though the next turn plays by the time its latency
// has passed (before its result, or its malformed fault) and it is
// recorded.
func TestCallKeepsItsTurn(t *testing.T) {
	for _, tool := range []string{"slow", "garbled"} {
		t.Run(tool, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				board := backend.NewBoard(false, func(string) bool { return true })
				c, plans := serverFixture(t)
				s := NewServer(c, board, plans, Options{Now: time.Now, Hold: time.Minute})
				defer s.Close()
				bd := board.Bind("a")
				defer bd.Release()
				cs := connect(t, "http://doubles.test"+c.Path, "", inprocess.Transport(s.Handler()))
				defer cs.Close()

				time.AfterFunc(time.Millisecond, func() { bd.SetTurn(1) })
				_, _ = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tool, Arguments: map[string]any{}})
				synctest.Wait() // the server has recorded the call
				if bd.Turn() != 1 {
					t.Fatal("turn 1 did not start during the call")
				}
				late, _ := bd.Take(1)
				calls, _ := bd.Take(0)
				if len(late) != 0 || len(calls) != 1 || calls[0].Turn != 0 || calls[0].Served.Tool != tool {
					t.Errorf("turn 0 has %+v, turn 1 %+v; want the call in turn 0, where it arrived", calls, late)
				}
			})
		})
	}
}
