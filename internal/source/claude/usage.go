package claude

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

// Provider is the provider a transcript's usage names: Claude Code and the
// Agent SDK call Anthropic's models.
const Provider = "anthropic"

// What a transcript says its model calls used (docs/cost.md):
//
//   - Each assistant line carries message.usage, the usage of the API
//     message it is part of. Claude Code writes one line per content
//     block, so the lines of one message share its message.id and usage:
//     each message.id is counted once, in the turn it first appears in,
//     with the usage of its line that reports the most output tokens (the
//     last of those: a streamed message's final count).
//   - A subagent's messages (sidechain lines, or its own transcript) cost
//     money too: they are counted in the turn whose call started the
//     subagent, as its tool calls are.
//   - Lines Claude Code wrote itself (model "<synthetic>", API errors) are
//     no model call and are not counted; an assistant message without
//     usage is a part that reported none (the turn's spend is partial).
//   - The Agent SDK's result line ends one query() call and carries its
//     cost as total_cost_usd (and modelUsage's costUSD per model). That
//     cost is used as reported, for the turn the query ran in, when every
//     message it covers — those since the previous result line — is in
//     that turn; a query whose messages span several turns cannot be
//     split, so its cost is not used (a notice says so) and its tokens are
//     priced like any other's. It is never added to a priced cost.

// anthropicUsage is message.usage.
type anthropicUsage struct {
	Input       *int64 `json:"input_tokens"`
	Output      *int64 `json:"output_tokens"`
	CacheRead   *int64 `json:"cache_read_input_tokens"`
	CacheCreate *int64 `json:"cache_creation_input_tokens"`
}

// tokens are the usage's counts: input counts every input token, cache
// reads and writes among them.
func (u *anthropicUsage) tokens() cost.Tokens {
	var t cost.Tokens
	set := func(f cost.Field, n *int64) {
		if n != nil && *n >= 0 {
			t.Set(f, *n)
		}
	}
	set(cost.Output, u.Output)
	set(cost.CachedInput, u.CacheRead)
	set(cost.CacheWrite, u.CacheCreate)
	if u.Input != nil && *u.Input >= 0 {
		in := *u.Input
		for _, n := range []*int64{u.CacheRead, u.CacheCreate} {
			if n != nil && *n > 0 {
				in += *n
			}
		}
		t.Set(cost.Input, in)
	}
	return t
}

// readUsage reads message.usage; ok is false when the message has none.
func readUsage(raw json.RawMessage) (t cost.Tokens, out int64, ok bool) {
	if isNull(raw) {
		return t, 0, false
	}
	var u anthropicUsage
	if json.Unmarshal(raw, &u) != nil {
		return t, 0, false
	}
	t = u.tokens()
	out, _ = t.Get(cost.Output)
	return t, out, !t.Empty()
}

// apiUsage is one API message's usage.
type apiUsage struct {
	model  string
	tokens cost.Tokens
	out    int64 // its output tokens: the line that reports most is kept
	has    bool  // it reported usage
}

// turnSpend is what a turn's model calls used: its API messages, and the
// result lines that reported the cost of the queries it ran.
type turnSpend struct {
	msgs    []*apiUsage
	results []sdkResult
	// open: a message came after the turn's last result line; split: a
	// result line covered messages of another turn too.
	open, split bool
}

// sdkResult is the Agent SDK's result line.
type sdkResult struct {
	TotalCostUSD *float64                   `json:"total_cost_usd"`
	Usage        *anthropicUsage            `json:"usage"`
	ModelUsage   map[string]modelUsageEntry `json:"modelUsage"`
}

// modelUsageEntry is one model of a result line's modelUsage.
type modelUsageEntry struct {
	Input       *int64   `json:"inputTokens"`
	Output      *int64   `json:"outputTokens"`
	CacheRead   *int64   `json:"cacheReadInputTokens"`
	CacheCreate *int64   `json:"cacheCreationInputTokens"`
	CostUSD     *float64 `json:"costUSD"`
}

// spendOf grows the per-turn spends to hold turn and returns its.
func (b *builder) spendOf(turn int) *turnSpend {
	for len(b.spend) <= turn {
		b.spend = append(b.spend, &turnSpend{})
	}
	return b.spend[turn]
}

// countUsage counts an assistant line's message in turn: once per
// message.id.
func (b *builder) countUsage(turn int, it *item) {
	if it.m.synthetic() || it.e.IsAPIErrorMessage {
		return
	}
	var model string
	_ = json.Unmarshal(it.m.Model, &model) // a string, when there is one
	tokens, out, has := readUsage(it.m.Usage)
	if m := b.byMessage[it.m.ID]; m != nil && it.m.ID != "" {
		if has && (!m.has || out >= m.out) {
			m.model, m.tokens, m.out, m.has = model, tokens, out, true
		}
		return
	}
	m := &apiUsage{model: model, tokens: tokens, out: out, has: has}
	ts := b.spendOf(turn)
	ts.msgs, ts.open = append(ts.msgs, m), true
	if it.m.ID != "" {
		b.byMessage[it.m.ID] = m
	}
	b.span[turn] = true
}

// result reads an Agent SDK result line: the cost of the query it ends.
func (b *builder) result(it *item) {
	var r sdkResult
	if err := json.Unmarshal(it.raw, &r); err != nil {
		b.tr.Notices = append(b.tr.Notices, trace.Notice{Turn: b.cur,
			Message: fmt.Sprintf("%s: result line: %v; the cost it reports is not used", it.where(), err)})
		clear(b.span)
		return
	}
	if r.TotalCostUSD == nil && r.Usage == nil && len(r.ModelUsage) == 0 {
		return
	}
	cur := b.spendOf(b.cur)
	if len(b.span) == 0 || (len(b.span) == 1 && b.span[b.cur]) {
		cur.results, cur.open = append(cur.results, r), false
	} else {
		cur.split = true
		for t := range b.span {
			b.spendOf(t).split = true
		}
		turns := slices.Sorted(maps.Keys(b.span))
		b.tr.Notices = append(b.tr.Notices, trace.Notice{Turn: b.cur,
			Message: fmt.Sprintf("%s: the cost this result line reports covers turns %v, which it does not split: their tokens are priced instead", it.where(), turns)})
	}
	clear(b.span)
}

// usage is what turn i used: nil when none of its messages reported
// usage and no result line reported it.
func (b *builder) usage(i int) *cost.Spend {
	if i >= len(b.spend) {
		return nil
	}
	ts := b.spend[i]
	var s *cost.Spend
	for _, m := range ts.msgs {
		if m.has {
			s = &cost.Spend{}
			break
		}
	}
	if s != nil {
		for _, m := range ts.msgs {
			if m.has {
				s.Add(cost.Usage{Provider: Provider, Model: m.model, Tokens: m.tokens})
			} else {
				s.Missing()
			}
		}
	}
	if len(ts.results) == 0 || ts.open || ts.split {
		return s
	}
	if s == nil {
		return resultsSpend(ts.results)
	}
	b.reportedCost(i, s, ts.results)
	return s
}

// reportedCost gives the models of a turn's spend the cost its result
// lines reported: all of it to its one model, or each model its modelUsage
// cost when the results name every model.
func (b *builder) reportedCost(turn int, s *cost.Spend, results []sdkResult) {
	var total float64
	perModel := map[string]float64{}
	byModel := true
	for _, r := range results {
		if r.TotalCostUSD == nil {
			return // a query's cost is unknown
		}
		total += *r.TotalCostUSD
		if len(r.ModelUsage) == 0 {
			byModel = false
		}
		for name, mu := range r.ModelUsage {
			if mu.CostUSD == nil {
				byModel = false
				continue
			}
			perModel[name] += *mu.CostUSD
		}
	}
	if len(s.Models) == 1 {
		s.Models[0].CostUSD, s.Models[0].CostFrom = &total, cost.FromSource
		return
	}
	for _, m := range s.Models {
		if _, ok := perModel[m.Model]; !ok {
			byModel = false
		}
	}
	if !byModel {
		b.tr.Notices = append(b.tr.Notices, trace.Notice{Turn: turn,
			Message: fmt.Sprintf("%s: turn %d: its result lines report a cost of $%g but not what each of its %d models cost: its tokens are priced instead", b.display, turn, total, len(s.Models))})
		return
	}
	for i := range s.Models {
		c := perModel[s.Models[i].Model]
		s.Models[i].CostUSD, s.Models[i].CostFrom = &c, cost.FromSource
	}
}

// resultsSpend is the spend result lines report of a turn whose messages
// reported none: each result a part, per model from modelUsage (else its
// usage, model unnamed), with the cost as reported.
func resultsSpend(results []sdkResult) *cost.Spend {
	s := &cost.Spend{}
	for _, r := range results {
		if len(r.ModelUsage) > 0 {
			var us []cost.Usage
			for _, name := range slices.Sorted(maps.Keys(r.ModelUsage)) {
				mu := r.ModelUsage[name]
				u := cost.Usage{Provider: Provider, Model: name,
					Tokens: (&anthropicUsage{Input: mu.Input, Output: mu.Output, CacheRead: mu.CacheRead, CacheCreate: mu.CacheCreate}).tokens()}
				if mu.CostUSD != nil {
					u.CostUSD, u.CostFrom = mu.CostUSD, cost.FromSource
				}
				us = append(us, u)
			}
			s.Add(us...)
			continue
		}
		u := cost.Usage{Provider: Provider}
		if r.Usage != nil {
			u.Tokens = r.Usage.tokens()
		}
		if r.TotalCostUSD != nil {
			u.CostUSD, u.CostFrom = r.TotalCostUSD, cost.FromSource
		}
		s.Add(u)
	}
	return s
}
