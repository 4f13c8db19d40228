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
// events cap: every event a call, run error, first text or warning names,
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
	}
	delete(pins, 0)
	return pins
}

// events reads a turn's raw events through the trace — masked by its Mask,
// as the trace file's are — keeping each within EventCap and the test's
// within budget (pinned events whatever the budget). It returns the
// events kept, the runs left out, and how many events the turn has.
func events(tr *trace.Trace, tt *trace.Turn, pins map[int64]bool, budget *int) ([]event, []leftOut, int, error) {
	out, gaps, n := []event{}, []leftOut(nil), 0
	err := tt.ReadEvents(func(e *trace.Event) error {
		n++
		if *budget <= 0 && !pins[e.Seq] {
			if k := len(gaps) - 1; k >= 0 && gaps[k].To == e.Seq-1 {
				gaps[k].To, gaps[k].Count = e.Seq, gaps[k].Count+1
			} else {
				gaps = append(gaps, leftOut{From: e.Seq, To: e.Seq, Count: 1})
			}
			return nil
		}
		raw := json.RawMessage(e.Raw)
		if tr.Mask != nil {
			raw = tr.Mask(raw) // before the cut: a secret across it is masked whole
		}
		ev := event{Seq: e.Seq, Ms: e.ReceivedMs - tr.TestStartMs, Origin: e.Origin}
		ev.Raw, ev.Bytes = cut(string(raw), EventCap)
		*budget -= len(ev.Raw)
		out = append(out, ev)
		return nil
	})
	if err != nil {
		return nil, nil, 0, fmt.Errorf("read events of turn %d: %w", tt.Index, err)
	}
	return out, gaps, n, nil
}
