package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want []string
	}{
		{"It is sunny and 21°C in Paris.", 4, []string{"It is ", "sunny and ", "21°C in ", "Paris."}},
		{"Done waiting.", 4, []string{"Done ", "waiting."}},
		{"one", 3, []string{"one"}},
	}
	for _, tc := range tests {
		got := splitWords(tc.text, tc.n)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitWords(%q, %d) = %q, want %q", tc.text, tc.n, got, tc.want)
		}
	}
}

func TestSplitRunes(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{`{}`, 3, []string{"{", "}"}},
		{`{"city":"Paris"}`, 3, []string{`{"city`, `":"Par`, `is"}`}},
		{`{"q":"héé"}`, 2, []string{`{"q":"`, `héé"}`}},
		{"", 3, nil},
	}
	for _, tc := range tests {
		got := splitRunes(tc.s, tc.n)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitRunes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if strings.Join(got, "") != tc.s {
			t.Errorf("splitRunes(%q) does not join back", tc.s)
		}
	}
}

func TestWaitIn(t *testing.T) {
	tests := []struct {
		text string
		want time.Duration
	}{
		{"be slow", defaultWait},
		{"wait 50 ms", 50 * time.Millisecond},
		{"WAIT 70ms please", 70 * time.Millisecond},
		{"wait 6000 ms", maxWait},
		{"wait 99999999999999999999999 ms", maxWait},
	}
	for _, tc := range tests {
		if got := waitIn(tc.text); got != tc.want {
			t.Errorf("waitIn(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestQueryIn(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Search for trail shoes!", "trail shoes"},
		{"please find a rain jacket?", "a rain jacket"},
		{"find me something to search for", "me something to search for"},
		{"search", ""},
	}
	for _, tc := range tests {
		if got := queryIn(tc.text); got != tc.want {
			t.Errorf("queryIn(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestNameIn(t *testing.T) {
	tests := []struct{ text, want string }{
		{"My name is Ada Lovelace.", "Ada Lovelace"},
		{"hi, MY NAME IS bob, thanks", "bob"},
		{"my name is", ""},
		{"no name here", ""},
	}
	for _, tc := range tests {
		if got := nameIn(tc.text); got != tc.want {
			t.Errorf("nameIn(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestMessageText(t *testing.T) {
	tests := []struct{ content, want string }{
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","value":"u"}},{"type":"text","text":"b"}]`, "ab"},
		{`[{"type":"binary","mimeType":"text/plain","data":"eA==","filename":"x.txt"},{"type":"text","text":"c"}]`, "c"},
		{`{"unexpected":true}`, ""},
		{``, ""},
	}
	for _, tc := range tests {
		m := Message{Content: json.RawMessage(tc.content)}
		if got := m.Text(); got != tc.want {
			t.Errorf("Text(%s) = %q, want %q", tc.content, got, tc.want)
		}
	}
}

// TestCheckOrder makes sure the test verifier rejects what it should, so the
// script tests are not passing against a checker that accepts anything.
func TestCheckOrder(t *testing.T) {
	start := Event{Type: "RUN_STARTED", ThreadID: "t", RunID: "r"}
	finish := Event{Type: "RUN_FINISHED", ThreadID: "t", RunID: "r"}
	tests := []struct {
		name   string
		events []Event
	}{
		{"no RUN_STARTED", []Event{finish}},
		{"no terminal event", []Event{start}},
		{"open text at finish", []Event{start, {Type: "TEXT_MESSAGE_START", MessageID: "m"}, finish}},
		{"args without start", []Event{start, {Type: "TOOL_CALL_ARGS", ToolCallID: "c", Delta: "{}"}, finish}},
		{"open call at error", []Event{start, {Type: "TOOL_CALL_START", ToolCallID: "c", ToolCallName: "x", ParentMessageID: "m"}, {Type: "RUN_ERROR", Message: "x"}}},
		{"event after finish", []Event{start, finish, {Type: "STATE_SNAPSHOT"}}},
		{"chunk mixed with triad", []Event{start, {Type: "TEXT_MESSAGE_START", MessageID: "m"}, {Type: "TEXT_MESSAGE_END", MessageID: "m"}, {Type: "TEXT_MESSAGE_CHUNK", MessageID: "m", Delta: "x"}, finish}},
	}
	for _, tc := range tests {
		if err := checkOrder(tc.events); err == nil {
			t.Errorf("%s: checkOrder accepted %v", tc.name, types(tc.events))
		}
	}
}
