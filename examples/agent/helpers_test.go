package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// newTestServer mounts the agent on an httptest server without delays.
func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(newHandler(0))
	t.Cleanup(srv.Close)
	return srv
}

// userText is a one-message history.
func userText(text string) []Message {
	return []Message{msg("u1", "user", text)}
}

func msg(id, role, text string) Message {
	content, _ := json.Marshal(text)
	return Message{ID: id, Role: role, Content: content}
}

// postRun sends in to the agent and returns the parsed events. It fails the
// test unless the answer is a 200 event stream that obeys the ordering rules
// and starts and ends with events echoing the request's ids.
func postRun(t *testing.T, srv *httptest.Server, in RunAgentInput) []Event {
	t.Helper()
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/agent", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d (%s), want 200", resp.StatusCode, raw)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}
	events, err := parseSSE(string(raw))
	if err != nil {
		t.Fatalf("parse stream: %v\n%s", err, raw)
	}
	if err := checkOrder(events); err != nil {
		t.Fatalf("ordering: %v\n%s", err, raw)
	}
	if first := events[0]; first.ThreadID != in.ThreadID || first.RunID != in.RunID {
		t.Errorf("RUN_STARTED ids = %q/%q, want %q/%q", first.ThreadID, first.RunID, in.ThreadID, in.RunID)
	}
	if last := events[len(events)-1]; last.Type == "RUN_FINISHED" && (last.ThreadID != in.ThreadID || last.RunID != in.RunID) {
		t.Errorf("RUN_FINISHED ids = %q/%q, want %q/%q", last.ThreadID, last.RunID, in.ThreadID, in.RunID)
	}
	return events
}

// parseSSE splits a stream written in the official encoders' format:
// LF only, one "data: <json>" line per event, each followed by a blank line.
func parseSSE(raw string) ([]Event, error) {
	if strings.Contains(raw, "\r") {
		return nil, fmt.Errorf("stream contains CR")
	}
	if !strings.HasSuffix(raw, "\n\n") {
		return nil, fmt.Errorf("stream does not end with a blank line")
	}
	var events []Event
	for _, frame := range strings.Split(strings.TrimSuffix(raw, "\n\n"), "\n\n") {
		data, ok := strings.CutPrefix(frame, "data: ")
		if !ok || strings.Contains(data, "\n") {
			return nil, fmt.Errorf("frame %q is not a single data line", frame)
		}
		dec := json.NewDecoder(strings.NewReader(data))
		dec.DisallowUnknownFields()
		if strings.HasPrefix(data, `{"type":"STATE_DELTA"`) {
			// A patch, not text: kept as JSON in Content for the tests.
			var d StateDelta
			if err := dec.Decode(&d); err != nil {
				return nil, fmt.Errorf("decode %q: %w", data, err)
			}
			patch, _ := json.Marshal(d.Delta)
			events = append(events, Event{Type: d.Type, Content: string(patch)})
			continue
		}
		var e Event
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("decode %q: %w", data, err)
		}
		events = append(events, e)
	}
	return events, nil
}

// checkOrder applies the verifier rules of agui-protocol.md §5.3 and §5.5:
// RUN_STARTED first, items opened before use and closed before the run
// ends, chunk and triad forms not mixed, nothing after the terminal event.
func checkOrder(events []Event) error {
	if len(events) == 0 || events[0].Type != "RUN_STARTED" {
		return fmt.Errorf("first event must be RUN_STARTED")
	}
	texts, calls, steps := map[string]bool{}, map[string]bool{}, map[string]bool{}
	triad, chunked, started := map[string]bool{}, map[string]bool{}, map[string]bool{}
	ended := false
	for i, e := range events {
		if ended {
			return fmt.Errorf("event %d %s after the terminal event", i, e.Type)
		}
		var err error
		switch e.Type {
		case "RUN_STARTED":
			if i != 0 {
				err = fmt.Errorf("second RUN_STARTED")
			}
		case "STATE_SNAPSHOT", "STATE_DELTA":
		case "TEXT_MESSAGE_START":
			err = openItem(texts, e.MessageID)
			err = orErr(err, e.MessageID == "" || chunked[e.MessageID], "text %q: missing id or mixed with chunks", e.MessageID)
			triad[e.MessageID] = true
		case "TEXT_MESSAGE_CONTENT":
			err = orErr(nil, !texts[e.MessageID] || e.Delta == "", "content for %q: not open or empty delta", e.MessageID)
		case "TEXT_MESSAGE_END":
			err = closeItem(texts, e.MessageID)
		case "TEXT_MESSAGE_CHUNK":
			err = orErr(nil, e.MessageID == "" || triad[e.MessageID], "chunk %q: missing id or mixed with START/END", e.MessageID)
			chunked[e.MessageID] = true
		case "TOOL_CALL_START":
			err = openItem(calls, e.ToolCallID)
			err = orErr(err, e.ToolCallName == "" || e.ParentMessageID == "", "call %q: missing name or parentMessageId", e.ToolCallID)
			started[e.ToolCallID] = true
		case "TOOL_CALL_ARGS":
			err = orErr(nil, !calls[e.ToolCallID], "args for %q: not open", e.ToolCallID)
		case "TOOL_CALL_END":
			err = closeItem(calls, e.ToolCallID)
		case "TOOL_CALL_RESULT":
			err = orErr(nil, !started[e.ToolCallID] || calls[e.ToolCallID] || e.MessageID == "" || e.Role != "tool",
				"result for %q: call not finished, or missing messageId/role", e.ToolCallID)
		case "STEP_STARTED":
			err = openItem(steps, e.StepName)
		case "STEP_FINISHED":
			err = closeItem(steps, e.StepName)
		case "RUN_FINISHED", "RUN_ERROR":
			ended = true
			err = orErr(nil, len(texts)+len(calls)+len(steps) > 0, "%s with open items: texts %v calls %v steps %v", e.Type, texts, calls, steps)
		default:
			err = fmt.Errorf("unexpected event type %s", e.Type)
		}
		if err != nil {
			return fmt.Errorf("event %d %s: %w", i, e.Type, err)
		}
	}
	if !ended {
		return fmt.Errorf("no RUN_FINISHED or RUN_ERROR")
	}
	return nil
}

func openItem(set map[string]bool, id string) error {
	if set[id] {
		return fmt.Errorf("%q already open", id)
	}
	set[id] = true
	return nil
}

func closeItem(set map[string]bool, id string) error {
	if !set[id] {
		return fmt.Errorf("%q not open", id)
	}
	delete(set, id)
	return nil
}

// orErr keeps an earlier error, or returns a new one if bad.
func orErr(err error, bad bool, format string, args ...any) error {
	if err == nil && bad {
		return fmt.Errorf(format, args...)
	}
	return err
}

// call is a tool call as a client reconstructs it from the stream.
type call struct {
	id, name, parent, args string
	result                 *string // nil while pending (client tool)
}

// capture rebuilds the tool calls (in start order) and the text of each
// message (in start order) from a stream.
func capture(events []Event) (calls []*call, texts []string) {
	byCall := map[string]*call{}
	byText := map[string]int{}
	for _, e := range events {
		switch e.Type {
		case "TOOL_CALL_START":
			c := &call{id: e.ToolCallID, name: e.ToolCallName, parent: e.ParentMessageID}
			byCall[c.id] = c
			calls = append(calls, c)
		case "TOOL_CALL_ARGS":
			byCall[e.ToolCallID].args += e.Delta
		case "TOOL_CALL_RESULT":
			content := e.Content
			byCall[e.ToolCallID].result = &content
		case "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CHUNK":
			i, ok := byText[e.MessageID]
			if !ok {
				i = len(texts)
				byText[e.MessageID] = i
				texts = append(texts, "")
			}
			texts[i] += e.Delta
		}
	}
	return calls, texts
}

// wantCall is an expected tool call; result "" means pending (no result).
type wantCall struct {
	name, args, result string
}

func checkCalls(t *testing.T, got []*call, want []wantCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d tool calls %v; want %d %v", len(got), names(got), len(want), want)
	}
	for i, w := range want {
		g := got[i]
		if g.name != w.name {
			t.Errorf("call %d name = %q, want %q", i, g.name, w.name)
		}
		var gotArgs, wantArgs any
		if err := json.Unmarshal([]byte(g.args), &gotArgs); err != nil {
			t.Errorf("call %d (%s) args %q are not JSON: %v", i, g.name, g.args, err)
		}
		if err := json.Unmarshal([]byte(w.args), &wantArgs); err != nil {
			t.Fatalf("bad test: %v", err)
		}
		if !reflect.DeepEqual(gotArgs, wantArgs) {
			t.Errorf("call %d (%s) args = %s, want %s", i, g.name, g.args, w.args)
		}
		switch {
		case w.result == "" && g.result != nil:
			t.Errorf("call %d (%s) has result %q, want none (client tool)", i, g.name, *g.result)
		case w.result != "" && g.result == nil:
			t.Errorf("call %d (%s) has no result, want %s", i, g.name, w.result)
		case w.result != "" && *g.result != w.result:
			t.Errorf("call %d (%s) result = %s, want %s", i, g.name, *g.result, w.result)
		}
	}
}

func names(calls []*call) []string {
	var ns []string
	for _, c := range calls {
		ns = append(ns, c.name)
	}
	return ns
}

func types(events []Event) []string {
	var ts []string
	for _, e := range events {
		ts = append(ts, e.Type)
	}
	return ts
}
