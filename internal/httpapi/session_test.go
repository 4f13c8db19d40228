package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// shop answers each turn of a three-turn conversation by its turn
// variable: a reply with a conversation id and usage, then a tool call,
// then an error.
func shop(w http.ResponseWriter, r *http.Request) {
	var in struct{ Turn string }
	_ = json.NewDecoder(r.Body).Decode(&in)
	switch in.Turn {
	case "0":
		writeJSON(w, 200, `{"reply":"hello","session_id":"c 1/x","usage":{"in":10,"out":3},"model":"shop-1"}`)
	case "1":
		writeJSON(w, 200, `{"reply":"it shipped","tool_calls":[{"id":"k1","name":"lookup","args":{"order":"A-1"},"output":{"status":"shipped"}},{"id":7,"name":"notify","args":"{\"to\":\"ada\"}","output":null}]}`)
	default:
		writeJSON(w, 200, `{"reply":null,"error":"quota exceeded"}`)
	}
}

func shopOptions(base string) Options {
	return Options{
		URL:  base + "/chat/" + Mark(VarConversationID) + "?t=" + Mark(VarTurn) + "&q=" + Mark(VarMessage),
		Body: jsonBody("session", Mark(VarConversationID), "message", Mark(VarMessage), "history", Mark(VarMessages), "turn", Mark(VarTurn), "note", "turn "+Mark(VarTurn)+" of "+Mark(VarMessages)),
		Response: Response{Text: "$.reply", ConversationID: "/session_id", Error: "$.error",
			ToolCalls:   &ToolCalls{Path: "$.tool_calls[*]", Name: "$.name", Arguments: "$.args", Result: "$.output", ID: "$.id"},
			InputTokens: "$.usage.in", OutputTokens: "/usage/out", Model: "$.model"},
		Header:  http.Header{"X-Team": {"qa"}},
		History: []target.Message{{Role: "user", Text: "earlier"}, {Role: "assistant", Text: "noted"}},
		Now:     stepClock(),
	}
}

// TestConversation: three turns against a JSON API: each request made
// from the template with the turn's variables, the conversation id the
// first response gave carried to the next requests (escaped for the
// path and the query), the conversation so far in ${messages}; the reply,
// the tool calls, the usage and the agent's error read into the trace.
func TestConversation(t *testing.T) {
	f := newFake(t, shop)
	s, err := New(shopOptions(f.srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder()
	for i, text := range []string{"hi & bye", "where is A-1?", "thanks"} {
		rec.StartTurn(i, target.TurnUser, text, s.now())
		if err := s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		rec.EndTurn(s.now(), nil)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests; want 3", len(reqs))
	}
	for i, want := range []struct{ path, query string }{
		{"/chat/", "t=0&q=hi+%26+bye"},
		{"/chat/c%201%2Fx", "t=1&q=where+is+A-1%3F"},
		{"/chat/c%201%2Fx", "t=2&q=thanks"},
	} {
		if r := reqs[i]; r.Method != "POST" || r.Path != want.path || r.Query != want.query ||
			r.Header.Get("X-Team") != "qa" || r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Accept") != "application/json" {
			t.Errorf("request %d: %s %s ?%s %v; want POST %s ?%s with the headers", i, r.Method, r.Path, r.Query, r.Header, want.path, want.query)
		}
	}
	var body struct {
		Session, Message, Turn, Note string
		History                      []message
	}
	if err := json.Unmarshal([]byte(reqs[1].Body), &body); err != nil {
		t.Fatalf("request body %s: %v", reqs[1].Body, err)
	}
	history := []message{{"user", "earlier"}, {"assistant", "noted"}, {"user", "hi & bye"}, {"assistant", "hello"}, {"user", "where is A-1?"}}
	if body.Session != "c 1/x" || body.Message != "where is A-1?" || body.Turn != "1" || !slices.Equal(body.History, history) {
		t.Errorf("request body %+v; want session c 1/x, the message, turn 1 and history %+v", body, history)
	}
	if js, _ := json.Marshal(history); body.Note != "turn 1 of "+string(js) {
		t.Errorf("note %q: ${messages} inside a string is the conversation's JSON text", body.Note)
	}
	if !strings.HasPrefix(reqs[0].Body, `{"session":"","message":"hi & bye","history":[`) {
		t.Errorf("first body %s: the template's order, the first conversation id empty, & as it is", reqs[0].Body)
	}

	tr := rec.Trace()
	if got := []string{tr.Turns[0].Text(), tr.Turns[1].Text(), tr.Turns[2].Text()}; !slices.Equal(got, []string{"hello", "it shipped", ""}) {
		t.Errorf("texts %q", got)
	}
	calls := tr.Turns[1].ToolCalls
	if len(calls) != 2 || calls[0].ID != "k1" || calls[0].Name != "lookup" || calls[0].Args != `{"order":"A-1"}` || !calls[0].ArgsJSON ||
		calls[0].Result == nil || calls[0].Result.Content != `{"status":"shipped"}` || !calls[0].Result.JSON || calls[0].StartSeq != calls[0].ResultSeq {
		t.Errorf("call 0: %+v", calls)
	}
	if len(calls) == 2 && (calls[1].ID != "7" || calls[1].Name != "notify" || calls[1].Args != `{"to":"ada"}` || calls[1].Result != nil) {
		t.Errorf("call 1 (a number for id, arguments as a string, result null): %+v", calls[1])
	}
	u := tr.Turns[0].Usage
	if in, _ := u.Tokens().Get(cost.Input); u == nil || in != 10 {
		t.Errorf("turn 0 usage %+v; want 10 in, 3 out", u)
	} else if out, _ := u.Tokens().Get(cost.Output); out != 3 {
		t.Errorf("turn 0 usage %+v; want 3 out", u)
	} else if len(u.Models) != 1 || u.Models[0].Model != "shop-1" {
		t.Errorf("turn 0 usage %+v; want it of model shop-1 (response.model), for pricing", u)
	}
	if tr.Turns[1].Usage != nil {
		t.Errorf("turn 1 reported no usage; got %+v", tr.Turns[1].Usage)
	}
	if errs := tr.Turns[2].RunErrors; len(errs) != 1 || errs[0].Message != "quota exceeded" || errs[0].Seq == 0 {
		t.Errorf("turn 2 errors %+v; want the agent's quota exceeded", errs)
	}
	for i, turn := range tr.Turns {
		if len(turn.Events) != 1 || turn.Events[0].Type != EventResponse || len(turn.Runs) != 1 || turn.Runs[0].Frames != 1 ||
			!strings.Contains(string(turn.Runs[0].Request), `"turn":"`) {
			t.Errorf("turn %d: events %+v runs %+v; want the response kept as one event of one run, the request with it", i, turn.Events, turn.Runs)
		}
	}
	src := s.Source()
	if src.Adapter != "http" || src.SessionID != "c 1/x" ||
		!slices.Equal(src.Capabilities, []string{capability.ToolTrace, capability.LiveRun, capability.Replay, capability.Usage}) {
		t.Errorf("source %+v", src)
	}
}

// TestSource: the capabilities a session declares are those its mapping
// can show.
func TestSource(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want []string
	}{
		{"text alone", Options{Response: Response{Text: "$.r"}}, []string{capability.LiveRun, capability.Replay}},
		{"a stream with usage", Options{Stream: &Stream{Text: "$.d"}, Response: Response{OutputTokens: "$.u"}},
			[]string{capability.StreamingTiming, capability.LiveRun, capability.Replay, capability.Usage}},
		{"tool calls", Options{Response: Response{Text: "$.r", ToolCalls: &ToolCalls{Path: "$.c[*]", Name: "$.n"}}},
			[]string{capability.ToolTrace, capability.LiveRun, capability.Replay}},
	} {
		s, err := New(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Source().Capabilities; !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
	}
}

// TestNewErrors: paths that do not parse are refused before anything is
// sent, naming the field.
func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, "http target: response.text is not set"},
		{Options{Stream: &Stream{}}, "http target: stream.text is not set"},
		{Options{Response: Response{Text: "reply"}}, `http target: response.text "reply": at byte 0:`},
		{Options{Response: Response{Text: "$", ToolCalls: &ToolCalls{Path: "$.c"}}}, "http target: response.tool_calls needs path and name"},
	} {
		if _, err := New(tc.o); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v; want %q", tc.o, err, tc.want)
		}
	}
}

// TestFill: the variables are escaped where they fall: a path segment, a
// query value, a JSON string; ${messages} alone is the array.
func TestFill(t *testing.T) {
	vals := map[string]string{VarMessage: `a/b c?&"é`, VarConversationID: "", VarMessages: `[{"role":"user","content":"x"}]`, VarTurn: "2"}
	if got := fillURL("http://h/p/"+Mark(VarMessage)+"/"+Mark(VarTurn)+"?m="+Mark(VarMessage)+"&c="+Mark(VarConversationID), vals); got != `http://h/p/a%2Fb%20c%3F&%22%C3%A9/2?m=a%2Fb+c%3F%26%22%C3%A9&c=` {
		t.Errorf("fillURL = %s", got)
	}
	body := fillBody(jsonBody("m", Mark(VarMessage), "all", Mark(VarMessages), "say", "<"+Mark(VarMessages)+">"), vals, []byte(vals[VarMessages]))
	want := `{"m":"a/b c?&\"é","all":[{"role":"user","content":"x"}],"say":"<[{\"role\":\"user\",\"content\":\"x\"}]>"}`
	if string(body) != want || !json.Valid(body) {
		t.Errorf("fillBody = %s; want %s", body, want)
	}
}
