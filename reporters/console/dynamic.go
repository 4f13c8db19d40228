package console

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
)

// checkpoints prints a dynamic test as a tree: each turn's user
// message and reply, and under it the checkpoints it reached; then which
// checkpoints were never reached, and the count.
func (p *printer) checkpoints(t *report.Test) {
	byTurn := map[int][]string{}
	reached := 0
	for _, c := range t.Checkpoints {
		if c.ReachedAt != nil {
			reached++
			byTurn[*c.ReachedAt] = append(byTurn[*c.ReachedAt], c.ID)
		}
	}
	for i, turn := range t.Turns {
		lead, child := branch(pad(1), i == len(t.Turns)-1)
		who := "Turn"
		if turn.Type == "simulated" {
			who = "Simulated turn"
		}
		p.out(fmt.Sprintf("%s%s %d: %s → %s", lead, who, turn.Index+1, clean(quote(turn.User, 60)), clean(quote(turn.Text, 60))))
		ids := byTurn[turn.Index]
		for j, id := range ids {
			l, _ := branch(child, j == len(ids)-1)
			p.out(l + p.o.paint("pass", "✓") + " checkpoint: " + clean(id))
		}
	}
	var missing []string
	for _, c := range t.Checkpoints {
		if c.ReachedAt == nil {
			missing = append(missing, c.ID)
		}
	}
	summary := fmt.Sprintf("%s, %d/%d checkpoints", plural.Count(len(t.Turns), "turn"), reached, len(t.Checkpoints))
	if len(missing) > 0 {
		summary += "; not reached: " + strings.Join(missing, ", ")
	}
	p.line(1, p.o.paint("dim", clean(summary)))
}

// ModelLine is the summary's line on language-model use, "" when none:
// "Model: 12 requests, 3 answers from the cache, 4,210 prompt + 612
// completion tokens".
func ModelLine(u report.Usage) string {
	if u.IsZero() {
		return ""
	}
	tokens := cost.FormatCount(u.PromptTokens) + " prompt + " + cost.FormatCount(u.CompletionTokens) + " completion tokens"
	switch {
	case u.Unreported > 0 && u.PromptTokens == 0 && u.CompletionTokens == 0:
		// Tokens the endpoint did not report are unknown, not zero.
		tokens = "tokens unknown (no reply reported usage)"
	case u.Unreported > 0:
		tokens = "≥ " + cost.FormatCount(u.PromptTokens) + " prompt + ≥ " + cost.FormatCount(u.CompletionTokens) +
			" completion tokens (" + plural.Count(u.Unreported, "reply") + " reported no usage)"
	}
	return fmt.Sprintf("Model: %s, %s from the cache, %s", plural.Count(u.Requests, "request"), plural.Count(u.CacheHits, "answer"), tokens)
}
