package assertion

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// model.max_calls and model.min_calls: how many requests the agent made
// to its model in scope, as Ananke's model gateway saw them
// (docs/gateway.md) — every request, those Ananke faulted and the
// agent's retries included.

// readMaxModelCalls reads model.max_calls: a number of calls (0: none at
// all), or false.
func readMaxModelCalls(l *reader, n *yaml.Node, what string) []Item {
	return limitItem(l.countAt(n, what, 0))
}

// readMinModelCalls reads model.min_calls: a positive number of calls,
// or false.
func readMinModelCalls(l *reader, n *yaml.Node, what string) []Item {
	return limitItem(l.countAt(n, what, 1))
}

// countAt reads a count of calls of at least lo, or false.
func (l *reader) countAt(n *yaml.Node, what string, lo int64) Limit {
	s, ok := l.Scalar(n, what, "a number of calls or false")
	if !ok {
		return Limit{}
	}
	if s.ShortTag() == "!!bool" {
		if b, _ := l.Boolean(s, what); b {
			l.Errorf(s, "%s: true is not a limit; write a number of calls, or false to disable an inherited one", what)
			return Limit{}
		}
		return Limit{Set: true, Off: true, Pos: l.Pos(s)}
	}
	k, ok := l.Integer(s, what, lo, math.MaxInt64)
	if !ok {
		return Limit{}
	}
	return Limit{Set: true, Ms: k, Pos: l.Pos(s)}
}

func maxModelCallsSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 0}, decode.Obj{"const": false}},
		"description": "At most this many requests to the model in scope (0: none), or false."}
}

func minModelCallsSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 1}, decode.Obj{"const": false}},
		"description": "At least this many requests to the model in scope, or false."}
}

// maxModelCalls passes when the scope made at most limit model calls; a
// failure shows the calls beyond it.
func maxModelCalls(r *Result, limit int64, s trace.Scope) {
	calls := s.ModelCalls()
	n := len(calls)
	r.Expected = "at most " + plural.Count(int(limit), "model call")
	r.Observed = plural.Count(n, "model call")
	if int64(n) <= limit {
		r.set(status.Pass, "%s made %s (limit %d)", s.Name, plural.Count(n, "model call"), limit)
		return
	}
	var over []string
	for i := int(max(limit, 0)); i < n; i++ {
		if len(over) < maxReasons {
			over = append(over, modelRef(calls[i], i))
		}
		if len(r.Evidence) < maxEvidence {
			r.Evidence = append(r.Evidence, modelEvidence(fmt.Sprintf("beyond the limit of %d", limit), calls[i], i))
		}
	}
	if extra := n - int(max(limit, 0)); extra > maxReasons {
		over = append(over, fmt.Sprintf("%d more", extra-maxReasons))
	}
	r.set(status.Fail, "%s made %s, over the limit of %d: %s", s.Name, plural.Count(n, "model call"), limit, strings.Join(over, ", "))
}

// minModelCalls passes when the scope made at least limit model calls.
func minModelCalls(r *Result, limit int64, s trace.Scope) {
	calls := s.ModelCalls()
	n := len(calls)
	r.Expected = "at least " + plural.Count(int(limit), "model call")
	r.Observed = plural.Count(n, "model call")
	for i, m := range calls {
		if len(r.Evidence) < maxEvidence {
			r.Evidence = append(r.Evidence, modelEvidence("made", m, i))
		}
	}
	if int64(n) >= limit {
		r.set(status.Pass, "%s made %s (at least %d)", s.Name, plural.Count(n, "model call"), limit)
		return
	}
	r.set(status.Fail, "%s made %s, fewer than the %d required", s.Name, plural.Count(n, "model call"), limit)
}

// modelRef names the i-th model call of a scope (from 0) for a message:
// "model call 2 in turn[1] (gpt-4o-mini)".
func modelRef(m trace.ModelCall, i int) string {
	return fmt.Sprintf("model call %d in %s (%s)", i+1, trace.TurnName(m.Turn), m.Model)
}

// modelEvidence shows one model call: its model, what became of it, and
// its tokens.
func modelEvidence(note string, m trace.ModelCall, i int) Evidence {
	return Evidence{Note: modelRef(m, i) + ": " + note, Text: modelCallText(m)}
}

// modelCallText says what one model call was: "gpt-4o-mini → 200 stop ·
// 1,200 prompt tokens, 80 completion tokens · 420 ms".
func modelCallText(m trace.ModelCall) string {
	var b strings.Builder
	b.WriteString(m.Model)
	if m.ResponseModel != "" && m.ResponseModel != m.Model {
		b.WriteString(" (answered by " + m.ResponseModel + ")")
	}
	fmt.Fprintf(&b, " → %d", m.Status)
	switch {
	case m.Fault != "":
		b.WriteString(" (fault " + m.Fault + " injected)")
	case m.Error != "":
		b.WriteString(" (" + m.Error + ")")
	case m.FinishReason != "":
		b.WriteString(" " + m.FinishReason)
	}
	if m.Usage != nil {
		if in, ok := m.Usage.Tokens.Get(cost.Input); ok {
			b.WriteString(" · " + cost.FormatCount(in) + " prompt tokens")
		}
		if out, ok := m.Usage.Tokens.Get(cost.Output); ok {
			b.WriteString(", " + cost.FormatCount(out) + " completion tokens")
		}
	}
	if m.EndedMs >= m.StartedMs && m.EndedMs > 0 {
		fmt.Fprintf(&b, " · %d ms", m.EndedMs-m.StartedMs)
	}
	return b.String()
}
