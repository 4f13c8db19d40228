package assertion

import "github.com/ananke/action/internal/trace"

// textEvents are the event types that carry assistant text.
var textEvents = map[string]bool{"TEXT_MESSAGE_START": true, "TEXT_MESSAGE_CONTENT": true, "TEXT_MESSAGE_END": true, "TEXT_MESSAGE_CHUNK": true}

// stateEvents are the event types that change the agent state.
var stateEvents = map[string]bool{"STATE_SNAPSHOT": true, "STATE_DELTA": true}

// textRefs returns the sequence numbers of the scope's text events: the
// evidence behind a check of the assistant's text.
func textRefs(s trace.Scope) []int64 { return eventRefs(s, textEvents) }

// stateRefs returns the sequence numbers of the scope's state events: the
// evidence behind a check of the state after the scope.
func stateRefs(s trace.Scope) []int64 { return eventRefs(s, stateEvents) }

func eventRefs(s trace.Scope, types map[string]bool) []int64 {
	// Counted first: a reply of a million deltas has a million refs, and
	// growing the slice would copy them over and over.
	n := 0
	for i := range s.Turns {
		s.Turns[i].EachEvent(func(_ int64, typ string) {
			if types[typ] {
				n++
			}
		})
	}
	if n == 0 {
		return nil
	}
	refs := make([]int64, 0, n)
	for i := range s.Turns {
		s.Turns[i].EachEvent(func(seq int64, typ string) {
			if types[typ] {
				refs = append(refs, seq)
			}
		})
	}
	return refs
}

// turnLabel names turn i of the scope in messages: the scope's own name for
// a turn scope, else the turn's index.
func turnLabel(s trace.Scope, i int) string {
	if s.Name != "test" && len(s.Turns) == 1 {
		return s.Name
	}
	return trace.TurnName(s.Turns[i].Index)
}
