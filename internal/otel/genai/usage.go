package genai

import (
	"cmp"
	"slices"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

// Usage attributes, current and older names.
const (
	AttrInputTokens      = "gen_ai.usage.input_tokens"
	AttrPromptTokens     = "gen_ai.usage.prompt_tokens" // input, in older instrumentations
	AttrOutputTokens     = "gen_ai.usage.output_tokens"
	AttrCompletionTokens = "gen_ai.usage.completion_tokens" // output, in older instrumentations
	AttrCacheRead        = "gen_ai.usage.cache_read.input_tokens"
	AttrCacheCreation    = "gen_ai.usage.cache_creation.input_tokens"
)

// modelOps are the operations of a span that is one request to a model.
var modelOps = []string{OpChat, OpTextCompletion, OpGenerateContent}

// Usage is what the spans' model calls used, as backend.ModelUsage counts
// the gateway's: one part per chat, text_completion or generate_content
// span, its tokens summed per provider (gen_ai.provider.name, else
// gen_ai.system) and model (gen_ai.response.model, else
// gen_ai.request.model); a span that failed (status error) used nothing
// and is no part, one that reported no tokens is a part unreported. When
// no model span reported usage, the invoke_agent spans that did are the
// parts — the outermost only, since an agent's usage includes its
// sub-agents'. Nil when no span reported usage.
func Usage(spans []trace.Span) *cost.Spend {
	parts := usageSpans(spans, isModelOp)
	if parts == nil {
		parts = outermost(usageSpans(spans, func(op string) bool { return op == OpInvokeAgent }), spans)
	}
	if parts == nil {
		return nil
	}
	s := &cost.Spend{}
	for _, p := range parts {
		switch u, ok := usageOf(p); {
		case ok:
			s.Add(u)
		case p.Status != "error":
			s.Missing()
		}
	}
	return s
}

func isModelOp(op string) bool { return slices.Contains(modelOps, op) }

// usageSpans are the spans of the operations ok accepts, or nil when none
// of them reported usage.
func usageSpans(spans []trace.Span, ok func(op string) bool) []*trace.Span {
	var out []*trace.Span
	reported := false
	for i := range spans {
		if !ok(Operation(&spans[i])) {
			continue
		}
		out = append(out, &spans[i])
		if _, has := usageOf(&spans[i]); has {
			reported = true
		}
	}
	if !reported {
		return nil
	}
	return out
}

// outermost keeps the spans that reported usage and descend from no other
// of them.
func outermost(parts []*trace.Span, spans []trace.Span) []*trace.Span {
	byID := make(map[string]*trace.Span, len(spans))
	for i := range spans {
		byID[spans[i].SpanID] = &spans[i]
	}
	counted := map[string]bool{}
	for _, p := range parts {
		if _, ok := usageOf(p); ok {
			counted[p.SpanID] = true
		}
	}
	var out []*trace.Span
	for _, p := range parts {
		if !counted[p.SpanID] {
			continue
		}
		inner := false
		seen := map[string]bool{p.SpanID: true}
		for a := byID[p.ParentID]; a != nil && !seen[a.SpanID]; a = byID[a.ParentID] {
			seen[a.SpanID] = true
			if counted[a.SpanID] {
				inner = true
				break
			}
		}
		if !inner {
			out = append(out, p)
		}
	}
	return out
}

// usageOf is the usage a span reported: its input and output tokens (and
// cache reads and writes, which its input tokens include), its provider
// and model; false when it reported no tokens.
func usageOf(s *trace.Span) (cost.Usage, bool) {
	var t cost.Tokens
	for _, f := range []struct {
		field cost.Field
		keys  []string
	}{
		{cost.Input, []string{AttrInputTokens, AttrPromptTokens}},
		{cost.Output, []string{AttrOutputTokens, AttrCompletionTokens}},
		{cost.CachedInput, []string{AttrCacheRead}},
		{cost.CacheWrite, []string{AttrCacheCreation}},
	} {
		if n, ok := number(s.Attributes, f.keys...); ok && n >= 0 {
			t.Set(f.field, n)
		}
	}
	if !t.Known(cost.Input) && !t.Known(cost.Output) {
		return cost.Usage{}, false
	}
	str := func(k string) string { v, _ := s.Attributes[k].(string); return v }
	return cost.Usage{
		Provider: cmp.Or(str(AttrProvider), str(AttrSystem)),
		Model:    cmp.Or(str(AttrResModel), str(AttrReqModel)),
		Tokens:   t,
	}, true
}
