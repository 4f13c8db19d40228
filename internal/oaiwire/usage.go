package oaiwire

import "github.com/ananke/action/internal/cost"

// Usage is the usage a chat completion reports: in its body, or in the
// last chunk of a stream when the request asked for it
// (stream_options.include_usage).
type Usage struct {
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

// Usage is what u reports for model, nil when it reports no count.
func (u *Usage) Usage(model string) *cost.Usage {
	if u == nil {
		return nil
	}
	var t cost.Tokens
	set(&t, cost.Input, u.PromptTokens)
	set(&t, cost.Output, u.CompletionTokens)
	set(&t, cost.Total, u.TotalTokens)
	if d := u.PromptDetails; d != nil {
		set(&t, cost.CachedInput, d.CachedTokens)
		set(&t, cost.CacheWrite, d.CacheWriteTokens)
	}
	if d := u.CompletionDetails; d != nil {
		set(&t, cost.Reasoning, d.ReasoningTokens)
	}
	return usage(model, t, u.Cost)
}

// ResponsesUsage is the usage a response of the Responses API reports.
type ResponsesUsage struct {
	InputTokens  *int64 `json:"input_tokens"`
	OutputTokens *int64 `json:"output_tokens"`
	TotalTokens  *int64 `json:"total_tokens"`
	InputDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputDetails *struct {
		ReasoningTokens *int64 `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
}

// Usage is what u reports for model, nil when it reports no count.
func (u *ResponsesUsage) Usage(model string) *cost.Usage {
	if u == nil {
		return nil
	}
	var t cost.Tokens
	set(&t, cost.Input, u.InputTokens)
	set(&t, cost.Output, u.OutputTokens)
	set(&t, cost.Total, u.TotalTokens)
	if d := u.InputDetails; d != nil {
		set(&t, cost.CachedInput, d.CachedTokens)
	}
	if d := u.OutputDetails; d != nil {
		set(&t, cost.Reasoning, d.ReasoningTokens)
	}
	return usage(model, t, nil)
}

// set sets count f of t to n, when n is a count.
func set(t *cost.Tokens, f cost.Field, n *int64) {
	if n != nil && *n >= 0 {
		t.Set(f, *n)
	}
}

// usage is model's usage of t tokens, at the cost reported (nil: none);
// nil when no count is known.
func usage(model string, t cost.Tokens, reported *float64) *cost.Usage {
	if t.Empty() {
		return nil
	}
	out := &cost.Usage{Model: model, Tokens: t}
	if reported != nil && *reported >= 0 {
		c := *reported
		out.CostUSD, out.CostFrom = &c, cost.FromSource
	}
	return out
}
