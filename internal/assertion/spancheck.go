package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// The evaluators of spans.require and spans.forbid, over the agent's
// spans in scope (trace.Scope.Spans).

func spansRequire(r *Result, e *SpanEntry, s trace.Scope) {
	spans := s.Spans()
	byID := spansByID(spans)
	var matching []*trace.Span
	var reasons []string
	for i := range spans {
		sp := &spans[i]
		why := e.mismatch(sp, byID)
		if why == "" {
			matching = append(matching, sp)
			r.Evidence = append(r.Evidence, Evidence{Note: "matches the entry", Text: spanText(sp)})
			continue
		}
		if e.identifies(sp) {
			reasons = append(reasons, spanRef(sp)+" failed "+why)
			r.Evidence = append(r.Evidence, Evidence{Note: "eliminated: " + why, Text: spanText(sp)})
		}
	}
	within := ""
	if e.MaxDurationMs > 0 {
		within = fmt.Sprintf(", each within %d ms", e.MaxDurationMs)
	}
	r.Expected = fmt.Sprintf("%s %s%s", e.describe(), e.Count, within)
	r.Observed = fmt.Sprintf("%s matching (%s in %s)", plural.Count(len(matching), "span"), plural.Count(len(spans), "span"), s.Name)
	if !e.Count.Allows(len(matching)) {
		msg := fmt.Sprintf("expected %s %s, saw %d", e.describe(), e.Count, len(matching))
		switch {
		case len(spans) == 0:
			msg += ": no spans in " + s.Name
		case len(reasons) > 0:
			if len(reasons) > maxReasons {
				reasons = append(reasons[:maxReasons], fmt.Sprintf("%d more", len(reasons)-maxReasons))
			}
			msg += "; " + strings.Join(reasons, "; ")
		case len(matching) == 0:
			msg += fmt.Sprintf(" (%s in %s: %s)", plural.Count(len(spans), "span"), s.Name, spanNames(spans))
		}
		r.set(status.Fail, "%s", msg)
		return
	}
	if slow := slowSpans(e.MaxDurationMs, matching); len(slow) > 0 {
		r.Evidence = nil
		var parts []string
		for i, sp := range slow {
			if i < maxReasons {
				parts = append(parts, fmt.Sprintf("%s took %d ms", spanRef(sp), sp.DurationMs()))
			}
			r.Evidence = append(r.Evidence, Evidence{Note: fmt.Sprintf("took %d ms, over max_duration_ms %d", sp.DurationMs(), e.MaxDurationMs), Text: spanText(sp)})
		}
		if len(slow) > maxReasons {
			parts = append(parts, fmt.Sprintf("%d more", len(slow)-maxReasons))
		}
		r.Observed += fmt.Sprintf(", %s over %d ms", plural.Count(len(slow), "span"), e.MaxDurationMs)
		r.set(status.Fail, "%s: %s, over max_duration_ms %d", e.describe(), strings.Join(parts, ", "), e.MaxDurationMs)
		return
	}
	r.set(status.Pass, "%s found %s, expected %s%s", e.describe(), plural.Count(len(matching), "time"), e.Count, within)
}

func spansForbid(r *Result, e *SpanEntry, s trace.Scope) {
	spans := s.Spans()
	byID := spansByID(spans)
	var bad []string
	for i := range spans {
		sp := &spans[i]
		if e.mismatch(sp, byID) != "" {
			continue
		}
		bad = append(bad, spanRef(sp))
		r.Evidence = append(r.Evidence, Evidence{Note: "matches the forbidden entry", Text: spanText(sp)})
	}
	r.Expected = "no " + strings.TrimPrefix(strings.TrimPrefix(e.describe(), "a "), "any ")
	r.Observed = fmt.Sprintf("%s matching (%s in %s)", plural.Count(len(bad), "span"), plural.Count(len(spans), "span"), s.Name)
	if len(bad) == 0 {
		r.set(status.Pass, "%s (%s checked)", r.Expected, plural.Count(len(spans), "span"))
		return
	}
	if len(bad) > maxReasons {
		bad = append(bad[:maxReasons], fmt.Sprintf("%d more", len(bad)-maxReasons))
	}
	r.set(status.Fail, "forbidden: %s; found %s", e.describe(), strings.Join(bad, ", "))
}

// mismatch is the first thing span sp fails of the entry, or "".
func (e *SpanEntry) mismatch(sp *trace.Span, byID map[string]*trace.Span) string {
	if why := e.SpanSelect.mismatch(sp); why != "" {
		return why
	}
	if e.Under == nil {
		return ""
	}
	seen := map[string]bool{sp.SpanID: true}
	for a := byID[sp.ParentID]; a != nil && !seen[a.SpanID]; a = byID[a.ParentID] {
		seen[a.SpanID] = true
		if e.Under.mismatch(a) == "" {
			return ""
		}
	}
	return "under " + e.Under.describe()
}

func spansByID(spans []trace.Span) map[string]*trace.Span {
	m := make(map[string]*trace.Span, len(spans))
	for i := range spans {
		m[spans[i].SpanID] = &spans[i]
	}
	return m
}

func slowSpans(maxMs int64, spans []*trace.Span) []*trace.Span {
	if maxMs <= 0 {
		return nil
	}
	var slow []*trace.Span
	for _, sp := range spans {
		if sp.DurationMs() > maxMs {
			slow = append(slow, sp)
		}
	}
	return slow
}

// spanRef names a span in messages: "span `chat gpt-4o` 00f067aa0ba902b7".
func spanRef(sp *trace.Span) string { return fmt.Sprintf("span `%s` %s", sp.Name, sp.SpanID) }

// spanText shows a span in evidence: its name, id, turn, service,
// operation, duration and status.
func spanText(sp *trace.Span) string {
	parts := []string{spanRef(sp)}
	if sp.Turn >= 0 {
		parts = append(parts, "in "+trace.TurnName(sp.Turn))
	}
	if sp.Service != "" {
		parts = append(parts, "service "+sp.Service)
	}
	if op := attrText(sp.Attributes[attrOperation]); op != "" {
		parts = append(parts, "operation "+op)
	}
	parts = append(parts, fmt.Sprintf("%d ms", sp.DurationMs()), "status "+spanStatus(sp))
	if sp.StatusMessage != "" {
		parts[len(parts)-1] += " (" + shorten(sp.StatusMessage, excerptLen) + ")"
	}
	return strings.Join(parts, ", ")
}

// spanNames lists the names of spans for messages, each once, at most
// maxReasons of them.
func spanNames(spans []trace.Span) string {
	var names []string
	seen := map[string]bool{}
	for i := range spans {
		if seen[spans[i].Name] {
			continue
		}
		seen[spans[i].Name] = true
		names = append(names, "`"+spans[i].Name+"`")
	}
	if len(names) > maxReasons {
		names = append(names[:maxReasons], fmt.Sprintf("%d more", len(names)-maxReasons))
	}
	return strings.Join(names, ", ")
}
