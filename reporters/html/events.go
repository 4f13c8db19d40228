package html

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// The page's caps. What a cap leaves out stays in the test's trace file,
// which the page names beside the cut.
const (
	// EventCap bounds one raw event's JSON: an event of megabytes (a
	// state snapshot, a tool result streamed whole) is cut.
	EventCap = 8 << 10
	// TextCap bounds a text, a tool call's arguments or result, a state,
	// a memory item and an outbound message: enough for whatever a person
	// reads in a page.
	TextCap = 256 << 10
	// EventsCap bounds the raw events of one test, counted in bytes of
	// their JSON: beyond it only the events something points at are kept
	// (those of assertions, evidence, warnings, calls, run errors and the
	// first text), so a test that streamed a million deltas does not make
	// the page a hundred megabytes.
	EventsCap = 1 << 20
)

// cut returns s, or its first max bytes (on a character boundary) and
// its whole size when it is longer.
func cut(s string, max int) (string, int) {
	if len(s) <= max {
		return s, 0
	}
	end := max
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end], len(s)
}

// pinned returns the events the test's page points at, kept whatever the
// events cap: every event a call, run error, first text, warning, sub-agent
// run or activity names,
// and for the references of assertions and evidence, each single
// reference and both ends of every run of them.
func pinned(rt *report.Test, tr *trace.Trace) map[int64]bool {
	pins := map[int64]bool{}
	refs := func(r report.Refs) {
		for i := 0; i < len(r); i++ {
			pins[r[i]] = true
			for i+1 < len(r) && r[i+1] == r[i]+1 {
				i++
			}
			pins[r[i]] = true
		}
	}
	for _, a := range rt.Assertions {
		refs(a.EventRefs)
		for _, e := range a.Evidence {
			refs(e.EventRefs)
		}
	}
	for _, w := range rt.Warnings {
		pins[w.Seq] = true
	}
	for _, t := range tr.Turns {
		pins[t.FirstTextSeq] = true
		for _, c := range t.ToolCalls {
			pins[c.StartSeq], pins[c.EndSeq], pins[c.ResultSeq] = true, true, true
		}
		for _, e := range t.RunErrors {
			pins[e.Seq] = true
		}
		for _, s := range t.Subagents {
			pins[s.StartSeq], pins[s.EndSeq] = true, true
		}
		for _, a := range t.Activities {
			pins[a.FirstSeq], pins[a.LastSeq] = true, true
		}
	}
	delete(pins, 0)
	return pins
}

// writeEvents writes a turn's raw events as the elements of a JSON array,
// reading them through the trace — masked by its Mask, as the trace file's
// are — keeping each within EventCap and the test's within budget (pinned
// events whatever the budget). It returns how many events the turn has and
// the runs left out.
func writeEvents(w *jsonWriter, tr *trace.Trace, tt *trace.Turn, pins map[int64]bool, budget *int) (int, []leftOut, error) {
	var gaps []leftOut
	n, kept := 0, 0
	// Past the budget, events nothing points at are left out unread.
	keep := func(seq int64) bool {
		n++
		if *budget > 0 || pins[seq] {
			return true
		}
		if k := len(gaps) - 1; k >= 0 && gaps[k].To == seq-1 {
			gaps[k].To, gaps[k].Count = seq, gaps[k].Count+1
		} else {
			gaps = append(gaps, leftOut{From: seq, To: seq, Count: 1})
		}
		return false
	}
	err := tt.ReadEventsIf(keep, func(e *trace.Event) error {
		raw := json.RawMessage(e.Raw)
		if tr.Mask != nil {
			raw = tr.Mask(raw) // before the cut: a secret across it is masked whole
		}
		text, bytes := cut(string(raw), EventCap)
		*budget -= len(text)
		if kept++; kept > 1 {
			w.byte(',')
		}
		w.byte('[')
		w.int(e.Seq)
		w.byte(',')
		w.int(e.ReceivedMs - tr.TestStartMs)
		w.byte(',')
		w.string(text)
		if bytes > 0 || e.Origin != "" {
			w.byte(',')
			w.value(eventExtra{Bytes: bytes, Origin: e.Origin})
		}
		w.byte(']')
		return w.err
	})
	if err != nil {
		return 0, nil, fmt.Errorf("read events of turn %d: %w", tt.Index, err)
	}
	return n, gaps, nil
}
