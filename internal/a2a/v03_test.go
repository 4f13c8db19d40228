package a2a

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// sdk03 speaks A2A 0.3 through the SDK's compatibility layer, which
// Ananke used before it had its own: the tests hold the two alike.
func sdk03(hc *http.Client) a2aclient.FactoryOption {
	return a2av0.WithJSONRPCTransport(a2av0.JSONRPCTransportConfig{Client: hc})
}

// agent03 is a scripted A2A 0.3 agent: answer writes the body of its
// n-th JSON-RPC call (from 0), where SENT stands for the id of the last
// message it was sent. It keeps what it was sent.
type agent03 struct {
	srv    *httptest.Server
	answer func(w http.ResponseWriter, n int, method string, id json.RawMessage)

	mu    sync.Mutex
	calls []string // method, headers and params of each call
	sent  []string // the message ids it was sent
}

func newAgent03(t *testing.T, streaming bool, answer func(w http.ResponseWriter, n int, method string, id json.RawMessage)) *agent03 {
	t.Helper()
	a := &agent03{answer: answer}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"name":"scripted-0.3","description":"","version":"1","protocolVersion":"0.3.0","url":%q,
			"capabilities":{"streaming":%t},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`,
			a.srv.URL+"/rpc", streaming)
	})
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var p struct {
			Message struct {
				ID string `json:"messageId"`
			} `json:"message"`
		}
		json.Unmarshal(req.Params, &p)
		a.mu.Lock()
		n := len(a.calls)
		if p.Message.ID != "" {
			a.sent = append(a.sent, p.Message.ID)
		}
		a.calls = append(a.calls, fmt.Sprintf("%s %s accept=%q type=%q version=%q ext=%q id=%t %s", req.JSONRPC, req.Method,
			r.Header.Get("Accept"), r.Header.Get("Content-Type"), r.Header.Get("A2A-Version"), r.Header.Values("X-A2A-Extensions"), len(req.ID) > 2, req.Params))
		last := ""
		if len(a.sent) > 0 {
			last = a.sent[len(a.sent)-1]
		}
		a.mu.Unlock()
		// Written whole, with SENT the last message id it was sent.
		rec := httptest.NewRecorder()
		a.answer(rec, n, req.Method, req.ID)
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.WriteHeader(rec.Code)
		io.WriteString(w, strings.ReplaceAll(rec.Body.String(), "SENT", last))
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

// replay is what a conversation left: each turn's error, text, tool calls,
// run errors, runs and events, with the message ids Ananke made up (and
// the agent echoed) replaced by their order, and the calls the agent got.
func (a *agent03) replay(t *testing.T, o Options, texts ...string) (errs []string, record string) {
	t.Helper()
	var turns []target.Turn
	for i, text := range texts {
		turns = append(turns, target.Turn{Index: i, Type: target.TurnUser, Text: text})
	}
	return a.replayTurns(t, o, turns...)
}

// replayTurns is replay for turns of any kind.
func (a *agent03) replayTurns(t *testing.T, o Options, turns ...target.Turn) (errs []string, record string) {
	t.Helper()
	a.mu.Lock()
	a.calls, a.sent = nil, nil
	a.mu.Unlock()
	o.CardURL = a.srv.URL
	var ms int64
	o.Now = func() time.Time { ms++; return time.UnixMilli(ms) } // the same readings for both
	s, err := Dial(t.Context(), o)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	for i, in := range turns {
		rec.StartTurn(i, target.TurnUser, in.Text, time.UnixMilli(0))
		err := s.Turn(t.Context(), in, rec)
		rec.EndTurn(time.UnixMilli(0), nil)
		errs = append(errs, fmt.Sprint(err))
	}
	type event struct {
		Seq        int64
		ReceivedMs int64
		Type       string
		Raw        json.RawMessage
	}
	var played []any
	for _, turn := range rec.Trace().Turns {
		var events []event
		for _, e := range turn.Events {
			events = append(events, event{e.Seq, e.ReceivedMs, e.Type, e.Raw})
		}
		played = append(played, struct {
			Texts       []string
			Attachments []trace.Attachment
			AgentFiles  []trace.Attachment
			ToolCalls   []trace.ToolCall
			RunErrors   []trace.RunError
			Runs        []trace.Run
			Events      []event
		}{turn.Texts, turn.Attachments, turn.AgentFiles, turn.ToolCalls, turn.RunErrors, turn.Runs, events})
	}
	out, err := json.MarshalIndent(struct {
		Turns  []any
		Source trace.Source
		Calls  []string
	}{played, s.Source(), a.calls}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	record = string(out)
	for i, id := range a.sent {
		record = strings.ReplaceAll(record, id, fmt.Sprintf("<sent %d>", i))
	}
	return errs, record
}

// Scripted answers: 0.3 results and stream events.
const (
	msg03     = `{"kind":"message","messageId":"m1","contextId":"c1","role":"agent","parts":[{"kind":"text","text":"Hello!"}]}`
	working03 = `{"kind":"status-update","taskId":"t1","contextId":"c1","final":false,"status":{"state":"working","timestamp":"2026-01-02T03:04:05.678Z",
		"message":{"kind":"message","messageId":"s1","role":"agent","parts":[
			{"kind":"data","data":{"id":"call-1","name":"get_weather","args":{"city":"Paris","n":1e21,"x":1.5}},"metadata":{"adk_type":"function_call"}}]}}}`
	chunk1_03 = `{"kind":"artifact-update","taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","name":"answer","parts":[{"kind":"text","text":"10 EUR = "}]}}`
	chunk2_03 = `{"kind":"artifact-update","taskId":"t1","contextId":"c1","append":true,"lastChunk":true,"artifact":{"artifactId":"a1","parts":[{"kind":"text","text":"11.70 USD"}]},"metadata":{"k":[1,null,"v"]}}`
	done03    = `{"kind":"status-update","taskId":"t1","contextId":"c1","final":true,"status":{"state":"completed","message":{"kind":"message","messageId":"s2","role":"agent","parts":[
		{"kind":"data","data":{"id":"call-1","name":"get_weather","response":{"temp_c":21}},"metadata":{"adk_type":"function_response"}},
		{"kind":"data","data":{"value":[1,2]},"metadata":{"data_part_compat":true,"other":"kept"}},
		{"kind":"file","file":{"bytes":"aGVsbG8=","mimeType":"text/plain","name":"a.txt"}},
		{"kind":"file","file":{"bytes":"not base64!","name":"b.bin"}},
		{"kind":"file","file":{"uri":"https://example.com/c.png","mimeType":"image/png"}}]}}}`
	asking03 = `{"kind":"status-update","taskId":"t2","contextId":"c1","final":true,"status":{"state":"input-required",
		"message":{"kind":"message","messageId":"q1","role":"agent","parts":[{"kind":"text","text":"For how many people?"}]}}}`
	failed03 = `{"kind":"status-update","taskId":"t1","contextId":"c1","final":true,"status":{"state":"failed",
		"message":{"kind":"message","messageId":"f1","role":"agent","parts":[{"kind":"text","text":"no tables left"}]}}}`
)

// task03 is a task snapshot: state, and the sent message (echoed as
// SENT) with an answer in its history.
func task03(state string) string {
	return `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"` + state + `"},"metadata":{"n":3},
		"history":[{"kind":"message","messageId":"SENT","role":"user","parts":[{"kind":"text","text":"hi"}]},
			{"kind":"message","messageId":"h1","role":"agent","parts":[{"kind":"text","text":"On it. "}],"referenceTaskIds":["t0"],"extensions":["e"]}],
		"artifacts":[{"artifactId":"a1","description":"d","parts":[{"kind":"text","text":"10 EUR = "},{"kind":"text","text":"11.70 USD"}]},null]}`
}

func result03(w http.ResponseWriter, id json.RawMessage, res string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, res)
}

func stream03(w http.ResponseWriter, id json.RawMessage, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		fmt.Fprintf(w, "id: x\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", id, strings.ReplaceAll(e, "\n", ""))
		w.(http.Flusher).Flush()
	}
}

// TestV03LikeTheSDK: Ananke's A2A 0.3 client and the SDK's compatibility
// layer, each in turn, play the same conversations with the same scripted
// agent; they send the same calls, and record the same trace and errors.
func TestV03LikeTheSDK(t *testing.T) {
	nonBlocking := false
	tests := []struct {
		name      string
		streaming bool
		o         Options
		texts     []string
		answer    func(w http.ResponseWriter, n int, method string, id json.RawMessage)
		// errorText: compare the errors' texts, not only whether there
		// was one (a malformed event is an error in words of each's own).
		errorText bool
	}{
		{"message", false, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			result03(w, id, msg03)
		}, true},
		{"polled task", false, Options{Blocking: &nonBlocking, AcceptedOutputModes: []string{"text/plain"}}, []string{"hi"},
			func(w http.ResponseWriter, n int, _ string, id json.RawMessage) {
				result03(w, id, task03([]string{"submitted", "working", "completed"}[min(n, 2)]))
			}, true},
		{"stream", true, Options{ContextID: "c1", ToolTrace: true}, []string{"weather in Paris"},
			func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
				stream03(w, id, task03("submitted"), working03, chunk1_03, chunk2_03, done03)
			}, true},
		{"input required, then answered", true, Options{}, []string{"book a table", "4"},
			func(w http.ResponseWriter, n int, _ string, id json.RawMessage) {
				if n == 0 {
					stream03(w, id, asking03)
					return
				}
				stream03(w, id, strings.ReplaceAll(done03, `"t1"`, `"t2"`))
			}, true},
		{"failed", true, Options{}, []string{"book"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			stream03(w, id, working03, failed03)
		}, true},
		{"JSON-RPC error", false, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			rpcErr(w, id, -32001, "Task not found")
		}, true},
		{"JSON-RPC error polling", false, Options{Blocking: &nonBlocking}, []string{"hi"},
			func(w http.ResponseWriter, n int, _ string, id json.RawMessage) {
				if n == 0 {
					result03(w, id, task03("working"))
					return
				}
				rpcErr(w, id, -32001, "")
			}, true},
		{"plain JSON-RPC error to a stream", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			rpcErr(w, id, -32603, "scripted failure")
		}, true},
		{"JSON-RPC error in a stream", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			stream03(w, id, working03)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32000,\"message\":\"boom\"}}\n\n", id)
		}, true},
		{"JSON-RPC error without a message in a stream", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-31401}}\n\n", id)
		}, true},
		{"empty stream", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			stream03(w, id)
		}, true},
		{"plain result to a stream", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			result03(w, id, msg03)
		}, true},
		{"stream cut short", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			stream03(w, id, working03)
		}, true},
		{"HTTP error", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, _ json.RawMessage) {
			http.Error(w, `{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}`, http.StatusBadGateway)
		}, true},
		{"HTTP error polling", false, Options{Blocking: &nonBlocking}, []string{"hi"}, func(w http.ResponseWriter, n int, _ string, id json.RawMessage) {
			if n == 0 {
				result03(w, id, task03("working"))
				return
			}
			http.Error(w, "down", http.StatusServiceUnavailable)
		}, true},
		{"not JSON", false, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, _ json.RawMessage) {
			io.WriteString(w, "<html>")
		}, true},
		{"no result", false, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s}`, id)
		}, false},
		{"an event answers a send", false, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			result03(w, id, working03)
		}, false},
		{"an unknown kind", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			stream03(w, id, working03, `{"kind":"progress"}`)
		}, false},
		{"an unknown part", false, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			result03(w, id, strings.Replace(msg03, `"kind":"text"`, `"kind":"video"`, 1))
		}, false},
		{"a file part with neither", false, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			result03(w, id, strings.Replace(msg03, `{"kind":"text","text":"Hello!"}`, `{"kind":"file","file":{"name":"x"}}`, 1))
		}, false},
		{"malformed data in a stream", true, Options{}, []string{"hi"}, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
			stream03(w, id, working03)
			io.WriteString(w, "data: {\"jsonrpc\":\n\n")
		}, true},
		{"framing: CRLF, comments, events without data, a last line unended", true, Options{}, []string{"hi"},
			func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, ": hello\r\nevent: ping\r\n\r\ndata:{\"jsonrpc\":\"2.0\",\"id\":%s,\r\ndata: \"result\":%s}\r\n\r\ndata:\r\n\r\n", id, strings.ReplaceAll(working03, "\n", ""))
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}", id, strings.ReplaceAll(done03, "\n", ""))
			}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ag := newAgent03(t, tc.streaming, tc.answer)
			sdk := tc.o
			sdk.v03 = sdk03
			wantErrs, want := ag.replay(t, sdk, tc.texts...)
			gotErrs, got := ag.replay(t, tc.o, tc.texts...)
			for i := range gotErrs {
				if tc.errorText && gotErrs[i] != wantErrs[i] || (gotErrs[i] == "<nil>") != (wantErrs[i] == "<nil>") {
					t.Errorf("turn %d: error\n%s\nwant (the SDK's)\n%s", i, gotErrs[i], wantErrs[i])
				}
			}
			if got != want {
				t.Errorf("recorded\n%s\nwant (the SDK's)\n%s", got, want)
			}
		})
	}
}

// TestV03SendsFilesLikeTheSDK: a message with files goes out as the
// SDK's compatibility layer sends it (file parts with their bytes in
// base64, media type and name), and the agent's file and data parts are
// recorded alike.
func TestV03SendsFilesLikeTheSDK(t *testing.T) {
	ag := newAgent03(t, false, func(w http.ResponseWriter, _ int, _ string, id json.RawMessage) {
		result03(w, id, `{"kind":"message","messageId":"m2","contextId":"c1","role":"agent","parts":[{"kind":"text","text":"ok"},
			{"kind":"data","data":{"value":[1,2]},"metadata":{"data_part_compat":true}},{"kind":"data","data":{"b":{"c":null}}},
			{"kind":"file","file":{"bytes":"aGVsbG8=","mimeType":"text/plain","name":"a.txt"}},
			{"kind":"file","file":{"uri":"https://example.com/c.png","mimeType":"image/png"}}]}`)
	})
	in := target.Turn{Type: target.TurnUser, Text: "look\nagain", Parts: []target.Part{
		{Type: "text", Text: "look"}, {Type: "document", MIME: "application/pdf", Filename: "a.pdf", Data: []byte("%PDF-1.7")},
		{Type: "text", Text: "again"}, {Type: "image", Data: []byte{0xff, 0}},
	}, Attachments: []trace.Attachment{{Name: "a.pdf", MIME: "application/pdf", Bytes: 8}, {Name: "", Bytes: 2}}}
	sdk := Options{v03: sdk03}
	wantErrs, want := ag.replayTurns(t, sdk, in)
	gotErrs, got := ag.replayTurns(t, Options{}, in)
	if gotErrs[0] != wantErrs[0] || got != want {
		t.Errorf("error %s, recorded\n%s\nwant (the SDK's) %s\n%s", gotErrs[0], got, wantErrs[0], want)
	}
	if !strings.Contains(got, `\"kind\":\"file\",\"file\":{\"mimeType\":\"application/pdf\",\"name\":\"a.pdf\",\"bytes\":\"JVBERi0xLjc=\"}`) {
		t.Errorf("the file part sent is not in\n%s", got)
	}
	var rec struct {
		Turns []struct {
			Texts      []string
			AgentFiles []trace.Attachment
		}
	}
	json.Unmarshal([]byte(got), &rec)
	wantText := "ok\n```json\n[1,2]\n```\n```json\n{\"b\":{\"c\":null}}\n```\nhello"
	wantFiles := []trace.Attachment{{Name: "a.txt", MIME: "text/plain", Bytes: 5}, {Name: "c.png", MIME: "image/png", URI: "https://example.com/c.png"}}
	if len(rec.Turns) != 1 || len(rec.Turns[0].Texts) != 1 || rec.Turns[0].Texts[0] != wantText || !slices.Equal(rec.Turns[0].AgentFiles, wantFiles) {
		t.Errorf("recorded %+v; want the text %q and the files %+v", rec.Turns, wantText, wantFiles)
	}
}

// TestV03TaskCalls: tasks/get and tasks/cancel, which the SDK's client
// calls through the transport, send what the SDK's own 0.3 transport sends
// and read the same tasks and errors.
func TestV03TaskCalls(t *testing.T) {
	answers := []func(w http.ResponseWriter, id json.RawMessage){
		func(w http.ResponseWriter, id json.RawMessage) { result03(w, id, task03("canceled")) },
		func(w http.ResponseWriter, id json.RawMessage) { result03(w, id, msg03) }, // a task by its shape
		func(w http.ResponseWriter, id json.RawMessage) { rpcErr(w, id, -32002, "Task cannot be canceled") },
		func(w http.ResponseWriter, id json.RawMessage) { http.Error(w, "no", http.StatusNotFound) },
	}
	ag := newAgent03(t, false, func(w http.ResponseWriter, n int, _ string, id json.RawMessage) {
		answers[n/4%len(answers)](w, id) // each answer to both transports' two calls
	})
	url := ag.srv.URL + "/rpc"
	history := 2
	sdk := a2av0.NewJSONRPCTransport(a2av0.JSONRPCTransportConfig{URL: url, Client: http.DefaultClient})
	ours := &v03Transport{url: url, hc: http.DefaultClient}
	params := a2aclient.ServiceParams{"A2A-Version": {"0.3"}, "A2A-Extensions": {"https://example.com/ext"}}
	for range answers {
		var got, want []string
		for _, tr := range []a2aclient.Transport{sdk, ours} {
			task, err := tr.GetTask(t.Context(), params, &a2a.GetTaskRequest{ID: "t1", HistoryLength: &history})
			b, _ := json.Marshal(task)
			out := fmt.Sprintf("get: %s %v", b, err)
			task, err = tr.CancelTask(t.Context(), params, &a2a.CancelTaskRequest{ID: "t1", Metadata: map[string]any{"why": "test"}})
			b, _ = json.Marshal(task)
			out += fmt.Sprintf("\ncancel: %s %v", b, err)
			if tr == sdk {
				want = append(want, out)
			} else {
				got = append(got, out)
			}
		}
		ag.mu.Lock()
		calls := ag.calls[len(ag.calls)-4:]
		ag.mu.Unlock()
		if got[0] != want[0] || calls[0] != calls[2] || calls[1] != calls[3] {
			t.Errorf("got\n%s\n%s\n%s\nwant (the SDK's)\n%s\n%s\n%s", got[0], calls[2], calls[3], want[0], calls[0], calls[1])
		}
	}
}
