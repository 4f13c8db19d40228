package agui_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/agui/aguitest"
)

// TestRequest: the body carries every RunAgentInput field (older servers
// answer 422 otherwise), in the official client's key order, with the
// headers the protocol requires plus the configured ones.
func TestRequest(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input)}
	})
	c := &agui.Client{Endpoint: srv.Endpoint(), Header: http.Header{"Authorization": {"Bearer tok"}}}
	in := agui.RunAgentInput{ThreadID: "th", RunID: "r1", ProtocolVersion: "1.0",
		Messages: []agui.Message{{ID: "u1", Role: "user", Content: agui.StringContent("hi")}}}
	if _, err := c.Run(context.Background(), in, nil); err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[0]
	want := `{"threadId":"th","runId":"r1","protocolVersion":"1.0","state":{},"messages":[{"id":"u1","role":"user","content":"hi"}],"tools":[],"context":[],"forwardedProps":{}}`
	if string(req.Body) != want {
		t.Errorf("body =\n%s\nwant\n%s", req.Body, want)
	}
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream", "Authorization": "Bearer tok"} {
		if got := req.Header.Get(k); got != v {
			t.Errorf("header %s = %q; want %q", k, got, v)
		}
	}
	in.ProtocolVersion = ""
	c.Run(context.Background(), in, nil)
	if strings.Contains(string(srv.Requests()[1].Body), "protocolVersion") {
		t.Error("protocolVersion sent although disabled")
	}
}

func TestTransportErrors(t *testing.T) {
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr + "/agent"
	}()
	tests := []struct {
		name    string
		resp    aguitest.Response
		url     string
		timeout time.Duration
		op      string
		msg     string
	}{
		{name: "connection refused", url: closed, op: "request", msg: "connection refused"},
		{name: "dns", url: "http://no-such-host.invalid/agent", op: "request", msg: "no-such-host.invalid"},
		{name: "500 with body", resp: aguitest.Response{Status: 500, ContentType: "application/json", Raw: `{"detail":"boom"}`}, op: "status", msg: `the agent answered HTTP 500: {"detail":"boom"}`},
		{name: "401 empty", resp: aguitest.Response{Status: 401}, op: "status", msg: "the agent answered HTTP 401 with an empty body"},
		{name: "html page", resp: aguitest.Response{ContentType: "text/html", Raw: "<html>Login</html>"}, op: "content-type", msg: "the agent answered with Content-Type text/html, not an event stream: <html>Login</html>"},
		{name: "stall after headers", resp: aguitest.Response{Hang: true}, timeout: 200 * time.Millisecond, op: "timeout", msg: "the run timed out"},
		{name: "drip", resp: aguitest.Response{Raw: "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n", Drip: 50 * time.Millisecond}, timeout: 300 * time.Millisecond, op: "timeout"},
		{name: "reset mid-stream", resp: aguitest.Response{Raw: "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n", Reset: true}, op: "read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if url == "" {
				url = aguitest.New(t, func(*aguitest.Request) aguitest.Response { return tc.resp }).Endpoint()
			}
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			type ran struct {
				res *agui.Result
				err error
			}
			done := make(chan ran, 1)
			go func() {
				res, err := (&agui.Client{Endpoint: url}).Run(ctx, agui.RunAgentInput{ThreadID: "t", RunID: "r"}, nil)
				done <- ran{res, err}
			}()
			var res *agui.Result
			var err error
			select {
			case r := <-done:
				res, err = r.res, r.err
			case <-time.After(time.Minute):
				t.Fatalf("Run has not returned after a minute (timeout %v)", tc.timeout)
			}
			var te *agui.TransportError
			if !errors.As(err, &te) || te.Op != tc.op || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Run = %v (%#v); want op %q containing %q", err, te, tc.op, tc.msg)
			}
			if res == nil || len(res.Request) == 0 {
				t.Error("the result must still carry the request sent")
			}
		})
	}
}

// TestCancelled: cancelling the context stops a run in flight.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := aguitest.New(t, func(*aguitest.Request) aguitest.Response {
		cancel() // the run is in flight
		return aguitest.Response{Hang: true}
	})
	_, err := (&agui.Client{Endpoint: srv.Endpoint()}).Run(ctx, agui.RunAgentInput{ThreadID: "t", RunID: "r"}, nil)
	var te *agui.TransportError
	if !errors.As(err, &te) || te.Op != "cancelled" {
		t.Fatalf("Run = %v; want cancelled", err)
	}
}

// TestObserver: every frame reaches the observer in order with its receive
// time and expanded events; chunk streams left open are closed in a final
// frame 0.
func TestObserver(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: []any{
			aguitest.E{"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
			aguitest.E{"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "a"},
		}}
	})
	tick := time.Unix(100, 0)
	c := &agui.Client{Endpoint: srv.Endpoint(), Now: func() time.Time { tick = tick.Add(time.Millisecond); return tick }}
	var frames []int
	var types []string
	res, err := c.Run(context.Background(), agui.RunAgentInput{ThreadID: "t", RunID: "r"}, func(f agui.Frame, evs []agui.Event, _ []agui.Problem) {
		frames = append(frames, f.Index)
		for _, e := range evs {
			types = append(types, e.Type)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(types, " "), "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END"; got != want {
		t.Errorf("types = %s; want %s", got, want)
	}
	if len(frames) != 3 || frames[0] != 1 || frames[1] != 2 || frames[2] != 0 {
		t.Errorf("frames = %v; want [1 2 0]", frames)
	}
	if !res.Failed() {
		t.Error("a stream without a terminal event must fail")
	}
}

// TestPending: calls started without a result are pending, in start order;
// an outcome's pendingToolCallIds wins; answered calls are not pending.
func TestPending(t *testing.T) {
	run := func(events []any) *agui.Result {
		srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response { return aguitest.Response{Events: events} })
		res, err := (&agui.Client{Endpoint: srv.Endpoint()}).Run(context.Background(), agui.RunAgentInput{ThreadID: "t", RunID: "r"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	in := agui.RunAgentInput{ThreadID: "t", RunID: "r"}
	res := run(aguitest.Run(in, aguitest.Seq(aguitest.Call("c1", "confirm", `{"a":1}`, ""), aguitest.Call("c2", "search", `{}`, "found"), aguitest.Call("c3", "pick", `{}`, ""))...))
	var got []string
	for _, c := range res.Pending {
		got = append(got, c.ID+":"+c.Function.Name+":"+c.Function.Arguments)
	}
	if strings.Join(got, " ") != `c1:confirm:{"a":1} c3:pick:{}` {
		t.Errorf("pending = %v", got)
	}
	events := aguitest.Run(in, aguitest.Seq(aguitest.Call("c1", "confirm", `{}`, ""), aguitest.Call("c3", "pick", `{}`, ""))...)
	events[len(events)-1].(aguitest.E)["outcome"] = map[string]any{"type": "success", "pendingToolCallIds": []string{"c3"}}
	if res := run(events); len(res.Pending) != 1 || res.Pending[0].ID != "c3" {
		t.Errorf("pending with outcome = %+v", res.Pending)
	}
}

// TestHistoryAcrossRuns: the history a run returns, sent back, carries the
// assistant tool calls and tool messages in the order the TS reducer uses.
func TestHistoryAcrossRuns(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
			aguitest.Call("c-"+r.Input.RunID, "search", `{"q":"x"}`, `{"hits":1}`),
			aguitest.Text("a-"+r.Input.RunID, "done"),
		)...)}
	})
	c := &agui.Client{Endpoint: srv.Endpoint()}
	msgs := []agui.Message{{ID: "u1", Role: "user", Content: agui.StringContent("first")}}
	res, err := c.Run(context.Background(), agui.RunAgentInput{ThreadID: "t", RunID: "r1", Messages: msgs}, nil)
	if err != nil || res.Failed() {
		t.Fatal(err, res.Problems)
	}
	roles := func(ms []agui.Message) string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Role+"/"+m.ID)
		}
		return strings.Join(out, " ")
	}
	if got, want := roles(res.Messages), "user/u1 assistant/msg-c-r1 tool/result-c-r1 assistant/a-r1"; got != want {
		t.Errorf("history = %s; want %s", got, want)
	}
	next := append(res.Messages, agui.Message{ID: "u2", Role: "user", Content: agui.StringContent("second")})
	c.Run(context.Background(), agui.RunAgentInput{ThreadID: "t", RunID: "r2", Messages: next}, nil)
	var sent agui.RunAgentInput
	json.Unmarshal(srv.Requests()[1].Body, &sent)
	if got, want := roles(sent.Messages), "user/u1 assistant/msg-c-r1 tool/result-c-r1 assistant/a-r1 user/u2"; got != want {
		t.Errorf("second request history = %s; want %s", got, want)
	}
	if args := sent.Messages[1].ToolCalls[0].Function.Arguments; args != `{"q":"x"}` {
		t.Errorf("tool call arguments sent back = %q", args)
	}
}
