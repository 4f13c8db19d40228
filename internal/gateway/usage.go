package gateway

import (
	"encoding/json"

	"github.com/ananke/action/internal/cost"
)

// usageJSON is the usage an OpenAI-compatible response reports: in its
// body, or in the last chunk of a stream when the request asked for it
// (stream_options.include_usage).
type usageJSON struct {
	PromptTokens     *int64 `json:"prompt_tokens"`
	CompletionTokens *int64 `json:"completion_tokens"`
	TotalTokens      *int64 `json:"total_tokens"`
	PromptDetails    *struct {
		CachedTokens     *int64 `json:"cached_tokens"`
		CacheWriteTokens *int64 `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionDetails *struct {
		ReasoningTokens *int64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	// Cost is what some providers (OpenRouter) report the call cost, in
	// US dollars.
	Cost *float64 `json:"cost"`
}

// usage is what u reports for model, nil when it reports no count.
func (u *usageJSON) usage(model string) *cost.Usage {
	if u == nil {
		return nil
	}
	var t cost.Tokens
	set := func(f cost.Field, n *int64) {
		if n != nil && *n >= 0 {
			t.Set(f, *n)
		}
	}
	set(cost.Input, u.PromptTokens)
	set(cost.Output, u.CompletionTokens)
	set(cost.Total, u.TotalTokens)
	if d := u.PromptDetails; d != nil {
		set(cost.CachedInput, d.CachedTokens)
		set(cost.CacheWrite, d.CacheWriteTokens)
	}
	if d := u.CompletionDetails; d != nil {
		set(cost.Reasoning, d.ReasoningTokens)
	}
	if t.Empty() {
		return nil
	}
	out := &cost.Usage{Model: model, Tokens: t}
	if u.Cost != nil && *u.Cost >= 0 {
		c := *u.Cost
		out.CostUSD, out.CostFrom = &c, cost.FromSource
	}
	return out
}

// answer is what the gateway reads of a response for the trace: the
// model that answered, its usage, how it finished and which tools it
// called.
type answer struct {
	model        string
	usage        *usageJSON
	finishReason string
	toolCalls    []string
}

// completionJSON is the part of a chat completion, or of one chunk of a
// streamed one, that answer reads.
type completionJSON struct {
	Model   string `json:"model"`
	Choices []struct {
		FinishReason *string      `json:"finish_reason"`
		Message      *messageJSON `json:"message"`
		Delta        *messageJSON `json:"delta"`
	} `json:"choices"`
	Usage *usageJSON `json:"usage"`
}

type messageJSON struct {
	ToolCalls []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// read adds what one body or chunk says; what is not JSON of that shape
// says nothing.
func (a *answer) read(data []byte) {
	var c completionJSON
	if json.Unmarshal(data, &c) != nil {
		return
	}
	if a.model == "" {
		a.model = c.Model
	}
	if c.Usage != nil {
		a.usage = c.Usage
	}
	for i, ch := range c.Choices {
		if ch.FinishReason != nil && *ch.FinishReason != "" && (i == 0 || a.finishReason == "") {
			a.finishReason = *ch.FinishReason
		}
		for _, m := range []*messageJSON{ch.Message, ch.Delta} {
			if m == nil {
				continue
			}
			for _, tc := range m.ToolCalls {
				// a streamed call names its function in its first delta
				if tc.Function.Name != "" {
					a.toolCalls = append(a.toolCalls, tc.Function.Name)
				}
			}
		}
	}
}
