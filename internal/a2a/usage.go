package a2a

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/ananke/action/internal/cost"
)

// A2A has no usage field: agents that report what their model calls used
// put it in the metadata of what they send (docs/a2a.md#usage). Two
// conventions are read, under these keys of a metadata object:
//
//   - adk_usage_metadata (ADK, Google's Agent Development Kit, whose A2A
//     converter copies each model call's Gemini usageMetadata there), and
//     kagent_usage_metadata (kagent, which serves ADK agents under its own
//     prefix): promptTokenCount, candidatesTokenCount, totalTokenCount,
//     cachedContentTokenCount, thoughtsTokenCount, toolUsePromptTokenCount.
//     It is one model call's: each message, artifact or status update that
//     carries it is a part of the turn's usage.
//   - usage: {prompt_tokens, completion_tokens, total_tokens} (as OpenAI
//     names them, and ADK-style Go agents put a task's total in its
//     metadata), or input_tokens/output_tokens, or inputTokens/outputTokens/
//     totalTokens; prompt_tokens_details.cached_tokens and
//     completion_tokens_details.reasoning_tokens when present; model and
//     provider when the object names them.
//
// Where: a message's metadata (each message once, by id), an artifact's
// (each artifact once per task, the last version seen: a streamed
// artifact's final chunk reports its call), a status update's (each
// event). A task's own metadata is read only when none of these reported
// usage in the turn: ADK's servers copy the last event's metadata there,
// so it would count a call twice. A report seen in an earlier turn is not
// counted again.

// adkKeys are the metadata keys of ADK's usage, in the order read.
var adkKeys = []string{"adk_usage_metadata", "kagent_usage_metadata"}

// usageOf reads the usage a metadata object reports, if any.
func usageOf(meta map[string]any) (cost.Usage, bool) {
	for _, k := range adkKeys {
		if v, ok := object(meta[k]); ok {
			if u, ok := geminiUsage(v); ok {
				return u, true
			}
		}
	}
	if v, ok := object(meta["usage"]); ok {
		return plainUsage(v)
	}
	return cost.Usage{}, false
}

// object is v as a JSON object: a map, or a string holding one (older ADK
// releases wrote their metadata values as JSON text).
func object(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(x), &m) == nil && m != nil {
			return m, true
		}
	}
	return nil, false
}

// count is a token count: a non-negative whole number (JSON numbers
// decode as float64; a string of digits is read too).
func count(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		if x >= 0 && x == math.Trunc(x) && x < 1<<53 {
			return int64(x), true
		}
	case json.Number:
		if n, err := x.Int64(); err == nil && n >= 0 {
			return n, true
		}
	case string:
		if n, err := strconv.ParseInt(x, 10, 64); err == nil && n >= 0 {
			return n, true
		}
	}
	return 0, false
}

// geminiUsage reads Gemini's usageMetadata: input is the prompt's tokens
// (cached ones among them) and the tool-use prompt's; output is the
// candidates' and the thoughts' (reasoning).
func geminiUsage(m map[string]any) (cost.Usage, bool) {
	var t cost.Tokens
	prompt, okP := count(m["promptTokenCount"])
	if tool, ok := count(m["toolUsePromptTokenCount"]); ok && okP {
		prompt += tool
	}
	if okP {
		t.Set(cost.Input, prompt)
	}
	out, okO := count(m["candidatesTokenCount"])
	thoughts, okT := count(m["thoughtsTokenCount"])
	if okO {
		t.Set(cost.Output, out+thoughts)
	}
	if okT {
		t.Set(cost.Reasoning, thoughts)
	}
	if n, ok := count(m["cachedContentTokenCount"]); ok {
		t.Set(cost.CachedInput, n)
	}
	if n, ok := count(m["totalTokenCount"]); ok {
		t.Set(cost.Total, n)
	}
	return cost.Usage{Tokens: t}, !t.Empty()
}

// plainUsage reads a usage object in OpenAI's, Anthropic's or the AI SDK's
// names.
func plainUsage(m map[string]any) (cost.Usage, bool) {
	var t cost.Tokens
	first := func(f cost.Field, keys ...string) {
		for _, k := range keys {
			if n, ok := count(m[k]); ok {
				t.Set(f, n)
				return
			}
		}
	}
	first(cost.Input, "prompt_tokens", "input_tokens", "inputTokens")
	first(cost.Output, "completion_tokens", "output_tokens", "outputTokens")
	first(cost.Total, "total_tokens", "totalTokens")
	if d, ok := m["prompt_tokens_details"].(map[string]any); ok {
		if n, ok := count(d["cached_tokens"]); ok {
			t.Set(cost.CachedInput, n)
		}
	}
	if d, ok := m["completion_tokens_details"].(map[string]any); ok {
		if n, ok := count(d["reasoning_tokens"]); ok {
			t.Set(cost.Reasoning, n)
		}
	}
	u := cost.Usage{Tokens: t}
	u.Provider, _ = m["provider"].(string)
	u.Model, _ = m["model"].(string)
	return u, !t.Empty()
}

// ledger is what one turn's exchange reported using: each report by the
// key of what carried it, the last version kept.
type ledger struct {
	calls, tasks []string // keys, in the order first seen
	byKey        map[string]cost.Usage
}

// add keeps a report: a model call's (a message, an artifact, a status
// update) or, when task is set, a task's total.
func (l *ledger) add(key string, u cost.Usage, task bool) {
	if l.byKey == nil {
		l.byKey = map[string]cost.Usage{}
	}
	if _, seen := l.byKey[key]; !seen {
		if task {
			l.tasks = append(l.tasks, key)
		} else {
			l.calls = append(l.calls, key)
		}
	}
	l.byKey[key] = u
}

// used are the keys of the reports the turn's usage is made of: its
// calls', or, when it has none, its tasks'.
func (l *ledger) used() []string {
	if len(l.calls) > 0 {
		return l.calls
	}
	return l.tasks
}

// spend is the turn's usage, each report used a part; nil when nothing
// was reported.
func (l *ledger) spend() *cost.Spend {
	keys := l.used()
	if len(keys) == 0 {
		return nil
	}
	s := &cost.Spend{}
	for _, k := range keys {
		s.Add(l.byKey[k])
	}
	return s
}

// report keeps the usage meta reports under key, unless an earlier turn
// counted it, and says whether meta reports usage.
func (r *run) report(key string, meta map[string]any, task bool) bool {
	u, ok := usageOf(meta)
	if !ok || r.s.counted[key] {
		return ok
	}
	r.usage.add(key, u, task)
	return true
}

// endUsage is the usage the run's exchange reported; the reports it used
// are not counted again in a later turn.
func (r *run) endUsage() *cost.Spend {
	if r.s.counted == nil {
		r.s.counted = map[string]bool{}
	}
	for _, k := range r.usage.used() {
		r.s.counted[k] = true
	}
	return r.usage.spend()
}
