package httpapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// plainOptions reads a reply, an error and tool calls from a plain
// response.
func plainOptions(base string) Options {
	return Options{URL: base + "/chat", Body: jsonBody("message", Mark(VarMessage)),
		Response: Response{Text: "$.reply", Error: "$.error", ToolCalls: &ToolCalls{Path: "$.calls[*]", Name: "$.name", Arguments: "$.args"},
			InputTokens: "$.usage.in"}}
}

// TestPlainAnswers: what a plain response makes of a turn — an error for
// what the mapping cannot read, naming the path and quoting the
// response; the agent's error recorded when the mapping names one.
func TestPlainAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		handle http.HandlerFunc
		want   string // the turn's error; "" for none
		errors string // the agent's errors recorded, joined
		text   string
	}{
		{name: "a reply", handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"reply":"hi"}`) }, text: "hi"},
		{name: "a reply that is not a string", handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"reply":{"a":[1,"<b>"]}}`) },
			text: `{"a":[1,"<b>"]}`},
		{name: "text matches nothing",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, "{\n  \"answer\": \"hi\"\n}") },
			want:   `response.text $.reply matched nothing in the response: {"answer":"hi"}`},
		{name: "a long response is quoted in part",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				writeJSON(w, 200, `{"answer":"`+strings.Repeat("é", 400)+`"}`)
			},
			want: `response.text $.reply matched nothing in the response: {"answer":"` + strings.Repeat("é", 144) + "…"},
		{name: "the agent's error, no text",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"error":{"code":7,"message":"no"}}`) },
			errors: `{"code":7,"message":"no"}`},
		{name: "an empty error is none",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"reply":"ok","error":""}`) }, text: "ok"},
		{name: "a call without a name",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				writeJSON(w, 200, `{"reply":"","calls":[{"name":"a","args":{}},{"tool":"b","args":{}}]}`)
			},
			want: `response.tool_calls.name $.name matched nothing in the call $.calls[*] selected: {"args":{},"tool":"b"}`},
		{name: "a call without its arguments",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"reply":"","calls":[{"name":"a"}]}`) },
			want:   `response.tool_calls.arguments $.args matched nothing in the call $.calls[*] selected: {"name":"a"}`},
		{name: "tokens that are no count",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"reply":"","usage":{"in":"many"}}`) },
			want:   `response.input_tokens $.usage.in is "many", not a token count`},
		{name: "not JSON",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html>Bad gateway</html>")
			},
			want: "the agent answered with a body that is not JSON (Content-Type text/html): invalid character '<' looking for beginning of value: <html>Bad gateway</html>"},
		{name: "an empty body",
			handle: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) },
			want:   "the agent answered with a body that is not JSON (no Content-Type): unexpected end of JSON input with an empty body"},
		{name: "429 with Retry-After",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", "30")
				writeJSON(w, 429, `{"error":"slow down"}`)
			},
			want: `the agent answered HTTP 429 Too Many Requests (Retry-After: 30): {"error":"slow down"}`},
		{name: "503 with Retry-After",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT")
				w.WriteHeader(503)
			},
			want: "the agent answered HTTP 503 Service Unavailable (Retry-After: Wed, 21 Oct 2026 07:28:00 GMT) with an empty body"},
		{name: "500",
			handle: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "boom", 500) },
			want:   "the agent answered HTTP 500 Internal Server Error: boom"},
		{name: "4xx naming its error is the agent's",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 422, `{"error":"refused: off topic"}`) },
			errors: "refused: off topic (422)"},
		{name: "4xx naming none",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 404, `{"detail":"no such route"}`) },
			want:   `the agent answered HTTP 404 Not Found: {"detail":"no such route"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.handle)
			tr, err := play(t, plainOptions(f.srv.URL), "hi")
			if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
				t.Fatalf("Turn error %v; want %q", err, tc.want)
			}
			turn := tr.Turns[0]
			var errs []string
			for _, e := range turn.RunErrors {
				s := e.Message
				if e.Code != "" {
					s += " (" + e.Code + ")"
				}
				errs = append(errs, s)
			}
			if got := strings.Join(errs, "; "); got != tc.errors {
				t.Errorf("the agent's errors %q; want %q", got, tc.errors)
			}
			if tc.want == "" && turn.Text() != tc.text {
				t.Errorf("text %q; want %q", turn.Text(), tc.text)
			}
			// Whatever came back is kept, for the report to show.
			if len(turn.Events) != 1 || len(turn.Runs) != 1 || turn.Runs[0].Frames != 1 {
				t.Errorf("events %d, runs %+v; want the response as one event of one run", len(turn.Events), turn.Runs)
			}
		})
	}
}

// streamOptions reads a stream whose events carry a delta, and the same
// mapping as plainOptions.
func streamOptions(base, done string) Options {
	o := plainOptions(base)
	o.Stream = &Stream{Text: "$.delta", Done: done}
	o.Response.ConversationID = "$.session"
	return o
}

// TestStreams: a streamed answer read event by event — the text
// appended, each event stamped as it came, calls whole, the last usage —
// and the ways a stream fails.
func TestStreams(t *testing.T) {
	for _, tc := range []struct {
		name   string
		done   string
		handle http.HandlerFunc
		want   string
		text   string
		events int
	}{
		{name: "to its done event", done: "[DONE]",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				writeEvents(w, `{"delta":"Hel","session":"s-1"}`, `{"ping":1}`, `{"delta":"lo","usage":{"in":4}}`, "[DONE]", `{"delta":"after"}`)
			},
			text: "Hello", events: 4},
		{name: "to the end of the body",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, ": a comment\n\nevent: ping\n\ndata: {\"delta\":\"a\",\n")
				io.WriteString(w, "data: \"calls\":[{\"name\":\"t\",\"args\":{\"x\":1}}]}\n\ndata: {\"delta\":null}\n\n")
			},
			text: "a", events: 2},
		{name: "without its done event", done: "[DONE]",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeEvents(w, `{"delta":"Hel"}`) },
			want:   `the stream ended without its done event "[DONE]", after 1 events`, events: 1},
		{name: "cut off in an event",
			handle: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "data: {\"delta\":\"a\"}\n\ndata: {\"del")
			},
			want: "the stream was cut off in the middle of an event, after 1 events", events: 1},
		{name: "an event that is not JSON",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeEvents(w, `{"delta":"a"}`, "hello there") },
			want:   "event 2 of the stream is not JSON: invalid character 'h' looking for beginning of value: hello there", events: 2},
		{name: "text matches no event",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeEvents(w, `{"text":"a"}`, `{"text":"b"}`) },
			want:   `stream.text $.delta matched nothing in the 2 events; the last: {"text":"b"}`, events: 2},
		{name: "no event", done: "[DONE]",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeEvents(w, "[DONE]") },
			want:   "stream.text $.delta matched nothing: the stream held no event with data", events: 1},
		{name: "the agent's error in an event",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeEvents(w, `{"error":"model overloaded"}`) },
			events: 1},
		{name: "a plain answer",
			handle: func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"delta":"hi"}`) },
			want:   `the agent answered with Content-Type application/json, not an event stream: {"delta":"hi"}`, events: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.handle)
			o := streamOptions(f.srv.URL, tc.done)
			o.Now = stepClock()
			tr, err := play(t, o, "hi")
			if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
				t.Fatalf("Turn error %v; want %q", err, tc.want)
			}
			turn := tr.Turns[0]
			if len(turn.Events) != tc.events {
				t.Errorf("%d events kept; want %d", len(turn.Events), tc.events)
			}
			if h := f.requests()[0].Header.Get("Accept"); h != "text/event-stream" {
				t.Errorf("Accept %q; want text/event-stream", h)
			}
			if tc.want == "" && turn.Text() != tc.text {
				t.Errorf("text %q; want %q", turn.Text(), tc.text)
			}
		})
	}
}

// TestStreamTiming: each event is stamped with the attempt's clock as it
// came, the first text with its event; the calls an event holds are the
// turn's, the last usage reported is the turn's, and the conversation id
// is carried.
func TestStreamTiming(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		writeEvents(w, `{"session":"s-1"}`, `{"delta":"Hel","usage":{"in":2}}`, `{"delta":"lo","calls":[{"name":"t","args":"{}"}],"usage":{"in":5}}`, "[DONE]")
	})
	o := streamOptions(f.srv.URL, "[DONE]")
	o.URL = f.srv.URL + "/chat/" + Mark(VarConversationID)
	o.Now = stepClock() // a millisecond at each reading, from 1,000,001
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder()
	for i := range 2 {
		rec.StartTurn(i, target.TurnUser, "hi", time.UnixMilli(1_000_000))
		if err := s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: "hi"}, rec); err != nil {
			t.Fatal(err)
		}
		rec.EndTurn(s.now(), nil)
	}
	turn := rec.Trace().Turns[0]
	var at []int64
	for _, e := range turn.Events {
		at = append(at, e.ReceivedMs-1_000_000)
	}
	// Readings: 1 the run's start, then 2, 3, 4, 5 the four events.
	if fmt.Sprint(at) != "[2 3 4 5]" || turn.FirstTextMs-1_000_000 != 3 || turn.FirstTextSeq != turn.Events[1].Seq {
		t.Errorf("events at %v, first text at %d (seq %d); want [2 3 4 5], 3 (the second event's)", at, turn.FirstTextMs-1_000_000, turn.FirstTextSeq)
	}
	if c := turn.ToolCalls; len(c) != 1 || c[0].ID != "call-0-0" || c[0].Name != "t" || c[0].StartSeq != turn.Events[2].Seq {
		t.Errorf("calls %+v; want t, from the third event", c)
	}
	if in, _ := turn.Usage.Tokens().Get(0); turn.Usage == nil || in != 5 {
		t.Errorf("usage %+v; want the last report, 5", turn.Usage)
	}
	if p := f.requests()[1].Path; p != "/chat/s-1" {
		t.Errorf("second request to %s; want the conversation id the stream gave", p)
	}
}

// TestHang: an agent that does not answer, or stops in the middle of its
// answer, ends the turn with an error at target.timeout_ms exactly, with
// what had come.
func TestHang(t *testing.T) {
	const timeout = 250 * time.Millisecond
	for _, tc := range []struct {
		name   string
		stream bool
		handle http.HandlerFunc
		want   string
		events int
	}{
		{name: "no answer",
			handle: func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			want:   "no answer within target.timeout_ms (250 ms): POST http://fake/chat: run timeout"},
		{name: "half a body",
			handle: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"reply":`)
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			},
			want: "no answer within target.timeout_ms (250 ms): the response stopped after 9 bytes: run timeout"},
		{name: "a stream that stops", stream: true,
			handle: func(w http.ResponseWriter, r *http.Request) {
				writeEvents(w, `{"delta":"a"}`)
				<-r.Context().Done()
			},
			want: "no answer within target.timeout_ms (250 ms): the stream stopped after 1 events: run timeout", events: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.handle)
			synctest.Test(t, func(t *testing.T) {
				o := plainOptions("http://fake")
				if tc.stream {
					o = streamOptions("http://fake", "[DONE]")
				}
				o.HTTP = f.inProcess()
				sess := target.Dialed(func(context.Context) (target.Conn, error) { return New(o) }, timeout)
				rec := trace.NewRecorder()
				rec.StartTurn(0, target.TurnUser, "hi", time.Now())
				start := time.Now()
				_, err := sess.Turn(t.Context(), target.Turn{Type: target.TurnUser, Text: "hi"}, rec)
				took := time.Since(start)
				turn := rec.EndTurn(time.Now(), nil)
				if err == nil || err.Error() != tc.want {
					t.Fatalf("Turn error %v; want %q", err, tc.want)
				}
				if took != timeout {
					t.Errorf("the turn took %v; want its timeout, %v", took, timeout)
				}
				if len(turn.Events) != tc.events {
					t.Errorf("%d events kept; want %d", len(turn.Events), tc.events)
				}
			})
		})
	}
}
