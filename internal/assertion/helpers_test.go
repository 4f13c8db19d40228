package assertion

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// replyTurn is a turn whose assistant said text, with the text events
// (seq 1-3) that recorded it.
func replyTurn(text string) trace.Turn {
	t := turnOf(text)
	t.Events = []trace.Event{{Seq: 1, Type: "TEXT_MESSAGE_START"}, {Seq: 2, Type: "TEXT_MESSAGE_CONTENT"}, {Seq: 3, Type: "TEXT_MESSAGE_END"}}
	return t
}

// reply is a one-turn scope whose assistant said text.
func reply(text string) trace.Scope { return scopeOf(replyTurn(text)) }

// seqAt gives a call its start event's sequence number.
func seqAt(seq int64) func(*trace.ToolCall) { return func(c *trace.ToolCall) { c.StartSeq = seq } }

// took sets when a call started and completed.
func took(startMs, endMs int64) func(*trace.ToolCall) {
	return func(c *trace.ToolCall) { c.StartedMs, c.TimestampMs = startMs, endMs }
}

// evalOne evaluates one check.
func evalOne(t *testing.T, c Check, s trace.Scope) Result {
	t.Helper()
	rs := Evaluate([]Check{c}, s)
	if len(rs) != 1 {
		t.Fatalf("Evaluate returned %d results for one check", len(rs))
	}
	return rs[0]
}

// exactCase is a check whose whole message is known.
type exactCase struct {
	name  string
	check Check
	scope trace.Scope
	want  status.Status
	msg   string
}

func runExact(t *testing.T, cases []exactCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := evalOne(t, tc.check, tc.scope)
			if r.Status != tc.want || r.Message != tc.msg {
				t.Errorf("Evaluate = %s\n  %s\nwant %s\n  %s", r.Status, r.Message, tc.want, tc.msg)
			}
			if r.Expected == "" || r.Observed == "" {
				t.Errorf("Expected %q, Observed %q; want both set", r.Expected, r.Observed)
			}
		})
	}
}

// hasRefs reports whether r refers to every sequence number in want.
func hasRefs(r Result, want ...int64) bool {
	for _, w := range want {
		found := false
		for _, seq := range r.EventRefs {
			found = found || seq == w
		}
		if !found {
			return false
		}
	}
	return true
}

// notes joins the evidence notes, for failure messages.
func notes(r Result) string {
	var ns []string
	for _, e := range r.Evidence {
		ns = append(ns, e.Note)
	}
	return strings.Join(ns, " | ")
}
