package agui

import (
	"encoding/json"
	"strconv"

	"github.com/ananke/action/internal/cost"
)

// usageCounts maps TokenUsage's counts to the trace's (docs/cost.md).
var usageCounts = [...]struct {
	name  string
	field cost.Field
}{
	{"inputTokens", cost.Input},
	{"outputTokens", cost.Output},
	{"totalTokens", cost.Total},
	{"reasoningTokens", cost.Reasoning},
	{"cachedInputTokens", cost.CachedInput},
	{"cacheWriteInputTokens", cost.CacheWrite},
}

// decodeUsage reads the usage of RUN_FINISHED or RUN_ERROR, a TokenUsage
// list (its shape, an array, is checked): one cost.Usage per entry, each
// count known only when the entry carries it. Usage is an account, not
// part of the run's protocol: what cannot be read is a warning and stays
// unknown — an entry that is not an object is left out, a count that is
// not a non-negative integer is unknown, a provider or model that is not
// a string is unnamed.
func decodeUsage(typ string, raw json.RawMessage, ps *problems) []cost.Usage {
	var entries []json.RawMessage
	_ = json.Unmarshal(raw, &entries) // an array of valid JSON: checked
	out := make([]cost.Usage, 0, len(entries))
	for i, e := range entries {
		var m map[string]json.RawMessage
		if firstByte(e) != '{' || json.Unmarshal(e, &m) != nil {
			ps.warnf(RuleSchema, "%s.usage[%d] is not a TokenUsage object: %s (left out)", typ, i, excerpt(e))
			continue
		}
		var u cost.Usage
		u.Provider = usageName(typ, i, "provider", m, ps)
		u.Model = usageName(typ, i, "model", m, ps)
		for _, c := range usageCounts {
			v, ok := m[c.name]
			if !ok {
				continue
			}
			k, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil || k < 0 {
				ps.warnf(RuleSchema, "%s.usage[%d].%s must be a non-negative integer, got %s (unknown)", typ, i, c.name, excerpt(v))
				continue
			}
			u.Tokens.Set(c.field, k)
		}
		out = append(out, u)
	}
	return out
}

// usageName reads an entry's provider or model ("" when absent).
func usageName(typ string, i int, key string, m map[string]json.RawMessage, ps *problems) string {
	v, ok := m[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil || firstByte(v) != '"' {
		ps.warnf(RuleSchema, "%s.usage[%d].%s must be a string, got %s (unnamed)", typ, i, key, excerpt(v))
		return ""
	}
	return s
}
