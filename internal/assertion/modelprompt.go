package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// model.max_prompt_tokens: no single model call in scope sent more than
// the limit of prompt (input) tokens, as the response's usage reported
// them. A call Ananke faulted, or that failed, was never answered and
// counts for nothing; an answered call that reported no usage is
// unknown, never taken for zero.

func maxPromptTokensSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 1}, decode.Obj{"const": false}},
		"description": "At most this many prompt tokens in any one model call in scope, as its response reported them, or false."}
}

// maxPromptTokens fails for each call over the limit; with none over,
// it is skipped when some answered call's prompt tokens are unknown.
func maxPromptTokens(r *Result, limit int64, s trace.Scope) {
	r.Expected = "≤ " + cost.FormatCount(limit) + " prompt tokens in each model call"
	calls := s.ModelCalls()
	var over, unknown []string
	var most int64
	for i, m := range calls {
		in, ok := int64(0), false
		if m.Usage != nil {
			in, ok = m.Usage.Tokens.Get(cost.Input)
		}
		switch {
		case !ok && modelAnswered(m):
			unknown = append(unknown, modelRef(m, i))
		case ok && in > limit:
			over = append(over, fmt.Sprintf("%s: %s", modelRef(m, i), cost.FormatCount(in)))
			if len(r.Evidence) < maxEvidence {
				r.Evidence = append(r.Evidence, modelEvidence("over the limit of "+cost.FormatCount(limit), m, i))
			}
		}
		most = max(most, in)
	}
	r.Observed = "at most " + cost.FormatCount(most) + " prompt tokens in a call"
	switch {
	case len(over) > 0:
		r.Observed = plural.Count(len(over), "call") + " over"
		r.set(status.Fail, "%s sent more than %s prompt tokens in a model call: %s", s.Name, cost.FormatCount(limit), strings.Join(shortList(over), ", "))
	case len(unknown) > 0:
		r.Observed = "prompt tokens unknown"
		r.set(status.Skip, "skipped: %s reported no usage, so its prompt tokens are unknown; the others are within %s", strings.Join(shortList(unknown), ", "), cost.FormatCount(limit))
	case len(calls) == 0:
		r.Observed = "no model call"
		r.set(status.Pass, "%s made no model call", s.Name)
	default:
		r.set(status.Pass, "%s sent at most %s prompt tokens in a model call (limit %s)", s.Name, cost.FormatCount(most), cost.FormatCount(limit))
	}
}

// modelAnswered reports whether the model answered the call: neither faulted
// by Ananke nor failed.
func modelAnswered(m trace.ModelCall) bool {
	return m.Fault == "" && m.Error == "" && m.Status >= 200 && m.Status < 300
}

// shortList keeps the first maxReasons entries, and says how many more.
func shortList(xs []string) []string {
	if len(xs) <= maxReasons {
		return xs
	}
	return append(xs[:maxReasons:maxReasons], fmt.Sprintf("%d more", len(xs)-maxReasons))
}
