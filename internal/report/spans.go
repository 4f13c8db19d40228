package report

import (
	"slices"

	"github.com/ananke/action/internal/trace"
)

// spans masks the agent's OpenTelemetry spans (docs/opentelemetry.md), in
// a copy: their names, status messages and every string among their
// attributes and their events', which may quote what the agent was told.
func (b *builder) spans(ss []trace.Span) []trace.Span {
	if len(ss) == 0 || b.red.Empty() {
		return ss
	}
	out := slices.Clone(ss)
	for i := range out {
		s := &out[i]
		s.Name, s.StatusMessage = b.red.String(s.Name), b.red.String(s.StatusMessage)
		s.Attributes = b.maskAttributes(s.Attributes)
		s.Events = slices.Clone(s.Events)
		for j := range s.Events {
			e := &s.Events[j]
			e.Name, e.Attributes = b.red.String(e.Name), b.maskAttributes(e.Attributes)
		}
	}
	return out
}

// maskAttributes masks an attribute map's strings, keys and values,
// however deep, in a copy.
func (b *builder) maskAttributes(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[b.red.String(k)] = b.maskValue(v)
	}
	return out
}

func (b *builder) maskValue(v any) any {
	switch v := v.(type) {
	case string:
		return b.red.String(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = b.maskValue(x)
		}
		return out
	case map[string]any:
		return b.maskAttributes(v)
	}
	return v
}
