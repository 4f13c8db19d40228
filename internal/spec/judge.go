package spec

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

func (l *loader) judge(n *yaml.Node, what string) *Judge {
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
