package agui_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// sessionFor is a session against srv whose ids count up and whose clock
// steps 1 ms at each reading.
func sessionFor(srv *aguitest.Server, o agui.SessionOptions) *agui.Session {
	n, at := 0, time.UnixMilli(1_000_000)
	o.NewID = func() string { n++; return fmt.Sprint("id", n) }
	o.Now = func() time.Time { at = at.Add(time.Millisecond); return at }
	o.Client = &agui.Client{Endpoint: srv.Endpoint(), Now: o.Now}
	if o.RunTimeout == 0 {
		o.RunTimeout = time.Minute
	}
	return agui.NewSession(o)
}

// TestSessionTurns: the session's turns share one thread, made at the
// first turn, and carry the conversation on; a client tool the agent calls
// is answered in a follow-up run, recorded as Ananke's answer; the state
// the trace shows is the last run's.
func TestSessionTurns(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		in := r.Input
		last := in.Messages[len(in.Messages)-1]
		switch {
		case last.Role == agui.RoleTool:
			return aguitest.Response{Events: aguitest.Run(in, aguitest.Seq(aguitest.Text("m2", "confirmed"),
				[]aguitest.E{{"type": agui.StateSnapshot, "snapshot": map[string]int{"turns": 1}}})...)}
		case len(in.Messages) == 2:
			return aguitest.Response{Events: aguitest.Run(in, aguitest.Call("c1", "confirm", `{"amount":5}`, "")...)}
		}
		return aguitest.Response{Events: aguitest.Run(in, aguitest.Text("m3", "again")...)}
	})
	s := sessionFor(srv, agui.SessionOptions{
		History: []agui.Message{agui.TextMessage("h1", agui.RoleUser, "earlier")},
		State:   json.RawMessage(`{}`), MaxFollowups: 2,
		Tools: []agui.Tool{{Name: "confirm"}},
		Answers: map[string]func(string) (string, bool){"confirm": func(args string) (string, bool) {
			return "yes to " + args, true
		}},
	})
	rec := trace.NewRecorder()
	var outs []target.Outcome
	for i, text := range []string{"buy", "buy again"} {
		rec.StartTurn(i, target.TurnUser, text, time.UnixMilli(0))
		out, err := s.Turn(context.Background(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
		rec.EndTurn(time.UnixMilli(0), s.State())
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].Input.ThreadID != "id1" || reqs[1].Input.ThreadID != "id1" || reqs[2].Input.ThreadID != "id1" {
		t.Fatalf("requests = %d, threads %v; want 3 runs on thread id1", len(reqs), reqs)
	}
	if n := len(reqs[2].Input.Messages); n != 6 {
		t.Errorf("the second turn sent %d messages; want 6 (history, user, call, answer, reply, user)", n)
	}
	tr := rec.Trace()
	c := tr.Turns[0].ToolCalls[0]
	if !c.Client || c.Result.Content != `yes to {"amount":5}` || len(tr.Turns[0].Runs) != 2 || tr.Turns[0].Text() != "confirmed" {
		t.Errorf("turn 0: call %+v, %d runs, text %q", c, len(tr.Turns[0].Runs), tr.Turns[0].Text())
	}
	if string(tr.Turns[1].State) != `{"turns":1}` || tr.Turns[1].Text() != "again" {
		t.Errorf("turn 1: state %s, text %q", tr.Turns[1].State, tr.Turns[1].Text())
	}
	for i, out := range outs {
		if !out.Conformance || len(out.Violations) > 0 || !out.ClientTools || out.ClientFailure != "" {
			t.Errorf("turn %d outcome = %+v; want a passing protocol and client_tools check", i, out)
		}
	}
}

// TestSessionClientFailures: a call no declared tool answers, and an agent
// that keeps calling past max_followups, fail the client_tools check.
func TestSessionClientFailures(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Call(r.Input.RunID+"-c", "confirm", `{}`, "")...)}
	})
	for _, c := range []struct {
		name    string
		answers map[string]func(string) (string, bool)
		want    string
		runs    int
	}{
		{"undeclared", nil, `the agent called "confirm" (call id3-c) and no result came back`, 1},
		{"no match", map[string]func(string) (string, bool){"confirm": func(string) (string, bool) { return "", false }},
			"no results entry of client tool \"confirm\" matches the arguments of call id3-c: {}", 1},
		{"past max_followups", map[string]func(string) (string, bool){"confirm": func(string) (string, bool) { return "ok", true }},
			"the agent still called client tools after 1 follow-up runs (target.max_followups)", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := sessionFor(srv, agui.SessionOptions{Answers: c.answers, MaxFollowups: 1})
			rec := trace.NewRecorder()
			rec.StartTurn(0, target.TurnUser, "buy", time.UnixMilli(0))
			out, err := s.Turn(context.Background(), target.Turn{Type: target.TurnUser, Text: "buy"}, rec)
			if err != nil {
				t.Fatal(err)
			}
			if !out.ClientTools || !strings.HasPrefix(out.ClientFailure, c.want) || len(rec.Trace().Turns[0].Runs) != c.runs {
				t.Errorf("outcome %+v after %d runs; want the client_tools check failed with %q after %d", out, len(rec.Trace().Turns[0].Runs), c.want, c.runs)
			}
		})
	}
}

// TestSessionServedCall: a call the agent streamed with no result that
// Ananke's tool doubles answered (Turn.Served) is its backend's: no
// client_tools failure, no follow-up run; one they did not answer still
// fails.
func TestSessionServedCall(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Call(r.Input.RunID+"-c", "inventory_check_stock", `{"sku":"A-1"}`, "")...)}
	})
	for _, c := range []struct {
		name   string
		served func(name, args string) bool
		want   string
	}{
		{"served", func(name, args string) bool { return name == "inventory_check_stock" && args == `{"sku":"A-1"}` }, ""},
		{"another call served", func(name, args string) bool { return name == "refund" }, `the agent called "inventory_check_stock"`},
		{"no doubles", nil, `the agent called "inventory_check_stock"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := sessionFor(srv, agui.SessionOptions{MaxFollowups: 1})
			rec := trace.NewRecorder()
			rec.StartTurn(0, target.TurnUser, "stock?", time.UnixMilli(0))
			out, err := s.Turn(context.Background(), target.Turn{Type: target.TurnUser, Text: "stock?", Served: c.served}, rec)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out.ClientFailure, c.want) || out.ClientTools != (c.want != "") || len(rec.Trace().Turns[0].Runs) != 1 {
				t.Errorf("outcome %+v after %d runs; want failure %q after 1 run", out, len(rec.Trace().Turns[0].Runs), c.want)
			}
		})
	}
}

// TestSessionRunTimeout: a run that outlasts its timeout ends with the
// cause target.ErrRunTimeout, which the engine words as target.timeout_ms.
func TestSessionRunTimeout(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input)[:1], Hang: true}
	})
	s := sessionFor(srv, agui.SessionOptions{RunTimeout: 50 * time.Millisecond})
	rec := trace.NewRecorder()
	rec.StartTurn(0, target.TurnConnect, "", time.UnixMilli(0))
	_, err := s.Turn(context.Background(), target.Turn{Type: target.TurnConnect}, rec)
	if !errors.Is(err, target.ErrRunTimeout) {
		t.Errorf("err = %v; want the run timeout", err)
	}
	// What the session sent, as recorded: under load the 50 ms may end
	// before the request reaches the agent.
	runs := rec.Trace().Turns[0].Runs
	var sent agui.RunAgentInput
	if len(runs) != 1 || json.Unmarshal(runs[0].Request, &sent) != nil || sent.RunID == "" || len(sent.Messages) != 0 {
		t.Errorf("runs %+v; want one whose request has no message", runs)
	}
}
