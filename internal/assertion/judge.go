package assertion

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Judge asks the config's model whether criteria no regex can check hold
// over the scope's transcript. A judge is a warning unless it says
// otherwise, and it only ever adds failures: it runs after the
// deterministic checks and cannot turn one of their failures into a pass.
type Judge struct {
	Pos      diag.Pos
	Criteria []vars.Template
	Severity Severity
}

var judgeFields = []string{"criteria", "severity"}

// maxCriteria bounds one judge: each criterion is a verdict the model must
// key correctly, and long lists are where verdicts get lost.
const maxCriteria = 20

func (l *reader) judge(n *yaml.Node, what string) *Judge {
	f, ok := l.Fields(n, what, judgeFields)
	if !ok {
		return nil
	}
	j := &Judge{Pos: l.Pos(l.DerefQuiet(n)), Severity: Warning}
	l.Require(n, f, what, "criteria")
	if p, ok := f["criteria"]; ok {
		items, _ := l.OneOrList(p.Val, what+".criteria")
		if len(items) > maxCriteria {
			l.Errorf(l.DerefQuiet(p.Val), "%s.criteria has %d entries; split them over several judges (at most %d each)", what, len(items), maxCriteria)
		}
		seen := map[string]bool{}
		for i, item := range items {
			t, ok := l.Template(item, decode.Index(what+".criteria", i))
			if !ok {
				continue
			}
			key := strings.ToLower(strings.TrimSpace(t.Raw))
			switch {
			case key == "":
				l.Errorf(l.DerefQuiet(item), "%s is empty", decode.Index(what+".criteria", i))
				continue
			case seen[key]:
				l.Errorf(l.DerefQuiet(item), "%s repeats an earlier criterion", decode.Index(what+".criteria", i))
				continue
			}
			seen[key] = true
			j.Criteria = append(j.Criteria, t)
		}
	}
	if p, ok := f["severity"]; ok {
		if s := l.severity(p.Val, what+".severity"); s != "" {
			j.Severity = s
		}
	}
	return j
}

// JudgeCheck is a judge with its criteria resolved (BindChecks; as
// written until then).
type JudgeCheck struct {
	Judge    *Judge
	Criteria []string
}

func readJudge(l *reader, n *yaml.Node, what string) []Item {
	j := l.judge(n, what)
	if j == nil {
		return nil
	}
	jc := &JudgeCheck{Judge: j}
	for _, t := range j.Criteria {
		jc.Criteria = append(jc.Criteria, t.Raw)
	}
	return []Item{{Pos: j.Pos, Severity: j.Severity, Payload: jc}}
}

// Refs implements Payload.
func (jc *JudgeCheck) Refs() []vars.Ref {
	var refs []vars.Ref
	for _, t := range jc.Judge.Criteria {
		refs = append(refs, t.Refs()...)
	}
	return refs
}

// Bind implements Payload: each criterion resolved.
func (jc *JudgeCheck) Bind(v *vars.Vars) (Payload, error) {
	b := &JudgeCheck{Judge: jc.Judge}
	for _, t := range jc.Judge.Criteria {
		text, err := t.Resolve(v)
		if err != nil {
			return nil, err
		}
		b.Criteria = append(b.Criteria, text)
	}
	return b, nil
}

// Judge returns c's judge, nil when c is not a judge check.
func (c Check) Judge() *JudgeCheck {
	jc, _ := c.Payload.(*JudgeCheck)
	return jc
}

// JudgeOutcome is what a judge check answered, kept on its result so
// reports can show each criterion's verdict and people can label it
// (docs/judges.md): the judge's identity — its model and the hash of its
// system prompt — and one verdict per criterion, in the criteria's order.
type JudgeOutcome struct {
	// Model is the judge model's name ("" when the completer does not say).
	Model string
	// PromptHash is judge.PromptHash of the system prompt the judge used.
	PromptHash string
	Criteria   []CriterionVerdict
	// Demoted says why a judge whose severity gates the build was reported
	// as a warning instead (its calibration is missing, stale or below
	// the threshold); "" when it was not.
	Demoted string
}

// CriterionVerdict is a judge's verdict on one criterion: "true", "false"
// or "inconclusive", with its reasoning.
type CriterionVerdict struct {
	Criterion string
	Verdict   string
	Reasoning string
}
