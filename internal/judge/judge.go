// Package judge asks a language model whether criteria no regex can check
// hold over a transcript: one verdict per criterion — true, false or
// inconclusive — with its reasoning, in a JSON answer keyed by criterion,
// so no verdict can be lost or land on the wrong criterion. An answer that
// does not fit is asked for once more; then the judge is an error, never a
// pass.
//
// A judge only adds failures: the engine runs it after the deterministic
// checks of its scope passed, and nothing here can change their results.
package judge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Verdicts.
const (
	True         = "true"
	False        = "false"
	Inconclusive = "inconclusive"
)

// Verdict is the judge's answer on one criterion.
type Verdict struct {
	Verdict   string `json:"verdict"`
	Reasoning string `json:"reasoning"`
}

// Describe says what judge check c expects, for plans (--dry-run) and
// results alike.
func Describe(c assertion.Check) string {
	return "the judge finds every criterion true: " + quoteAll(c.Judge().Criteria)
}

// Evaluate judges check c (bound: its criteria resolved) over scope s with
// the system prompt given ("" for DefaultPrompt). It returns the result
// and the model usage it took.
func Evaluate(ctx context.Context, m model.Completer, prompt string, c assertion.Check, s trace.Scope) (assertion.Result, model.Usage) {
	r := assertion.New(c, s.Name)
	criteria := c.Judge().Criteria
	r.Expected = Describe(c)
	verdicts, usage, err := ask(ctx, m, prompt, criteria, s)
	if err != nil {
		r.Status, r.Observed = status.Error, "no verdict"
		r.Message = "the judge gave no verdict: " + err.Error()
		r.Finish()
		return r, usage
	}
	var missed []string
	counts := map[string]int{}
	r.Judge = &assertion.JudgeOutcome{Model: ModelName(m), PromptHash: PromptHash(prompt)}
	for i, crit := range criteria {
		v := verdicts[key(i)]
		counts[v.Verdict]++
		r.Judge.Criteria = append(r.Judge.Criteria, assertion.CriterionVerdict{Criterion: crit, Verdict: v.Verdict, Reasoning: v.Reasoning})
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: fmt.Sprintf("%q: %s", crit, v.Verdict), Text: v.Reasoning})
		if v.Verdict != True {
			missed = append(missed, fmt.Sprintf("%q (%s: %s)", crit, v.Verdict, v.Reasoning))
		}
	}
	r.Observed = fmt.Sprintf("%d true, %d false, %d inconclusive", counts[True], counts[False], counts[Inconclusive])
	if len(missed) == 0 {
		r.Status = status.Pass
		r.Message = fmt.Sprintf("the judge found every criterion of %s met (%d)", s.Name, len(criteria))
	} else {
		r.Status = status.Fail
		r.Message = fmt.Sprintf("the judge found %d of %s not met in %s: %s", len(missed), plural.Count(len(criteria), "criterion"), s.Name, strings.Join(missed, "; "))
	}
	r.Finish()
	return r, usage
}

// PromptHash identifies a judge's system prompt ("" for DefaultPrompt):
// "sha256:" and the first 16 hex digits of the SHA-256 of the prompt's
// text. Verdicts, labels and calibrations are kept under it, so a changed
// prompt is seen (docs/judges.md).
func PromptHash(prompt string) string {
	if prompt == "" {
		prompt = DefaultPrompt
	}
	sum := sha256.Sum256([]byte(prompt))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// ModelName is m's model name when it says (the model client does).
func ModelName(m model.Completer) string {
	if n, ok := m.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

// key is the answer's key of criterion i: "c1", "c2", ...
func key(i int) string { return fmt.Sprintf("c%d", i+1) }

// ask asks for the verdicts, and once more when the answer does not fit.
func ask(ctx context.Context, m model.Completer, prompt string, criteria []string, s trace.Scope) (map[string]Verdict, model.Usage, error) {
	if prompt == "" {
		prompt = DefaultPrompt
	}
	req := model.Request{
		Messages:   []model.Message{{Role: "system", Content: prompt}, {Role: "user", Content: question(criteria, s)}},
		SchemaName: "verdicts", Schema: Schema(len(criteria)),
	}
	var verdicts map[string]Verdict
	usage, err := model.CompleteJSON(ctx, m, req, func(content string) (err error) {
		verdicts, err = parse(content, len(criteria))
		return err
	}, "Answer again with exactly one verdict object per criterion key.")
	if err != nil {
		return nil, usage, err
	}
	return verdicts, usage, nil
}

// parse reads an answer: {"verdicts": {"c1": {"verdict", "reasoning"}, ...}}
// with exactly the keys c1..cn and known verdicts.
func parse(content string, n int) (map[string]Verdict, error) {
	var answer struct {
		Verdicts map[string]Verdict `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(content), &answer); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if len(answer.Verdicts) != n {
		return nil, fmt.Errorf("%s for %s", plural.Count(len(answer.Verdicts), "verdict"), plural.Count(n, "criterion"))
	}
	for i := range n {
		v, ok := answer.Verdicts[key(i)]
		switch {
		case !ok:
			return nil, fmt.Errorf("no verdict for %s", key(i))
		case v.Verdict != True && v.Verdict != False && v.Verdict != Inconclusive:
			return nil, fmt.Errorf("verdict %q for %s is not true, false or inconclusive", v.Verdict, key(i))
		}
	}
	return answer.Verdicts, nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
