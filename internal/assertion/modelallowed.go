package assertion

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// model.allowed: every model call in scope asked for a model one of the
// globs matches (path.Match: "gpt-4o*", "claude-?-*"). It is the model
// the agent asked for that is judged — its choice — not the one a
// provider answered with.

// ModelGlobs is model.allowed: the models a block allows.
type ModelGlobs struct{ Globs []vars.Name }

// Refs implements Payload: a name holds no reference.
func (ModelGlobs) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (g ModelGlobs) Bind(*vars.Vars) (Payload, error) { return g, nil }

// readModelGlobs reads model.allowed: a glob or a list of them, one
// check per block.
func readModelGlobs(l *reader, n *yaml.Node, what string) []Item {
	items, _ := l.OneOrList(n, what)
	var g ModelGlobs
	for i, item := range items {
		name, ok := l.Name(item, decode.Index(what, i))
		if !ok {
			continue
		}
		if _, err := path.Match(name.Value, ""); err != nil {
			l.Errorf(item, "%s: %q is not a glob: %v", decode.Index(what, i), name.Value, err)
			continue
		}
		g.Globs = append(g.Globs, name)
	}
	if len(g.Globs) == 0 {
		return nil
	}
	return []Item{{Pos: g.Globs[0].Pos, Payload: g}}
}

func modelGlobsSchema() decode.Obj {
	return decode.OneOrMany(decode.Obj{"type": "string", "minLength": 1,
		"description": "A model the agent may ask for, or a glob of them (gpt-4o*); every model call in scope must match one."})
}

// allowedModels fails for each model call whose model no glob matches.
func allowedModels(r *Result, g ModelGlobs, s trace.Scope) {
	globs := make([]string, len(g.Globs))
	for i, n := range g.Globs {
		globs[i] = n.Value
	}
	list := "`" + strings.Join(globs, "`, `") + "`"
	r.Expected = "every model call asks for " + list
	calls := s.ModelCalls()
	var bad []string
	used := map[string]bool{}
	var models []string
	for i, m := range calls {
		if !used[m.Model] {
			used[m.Model] = true
			models = append(models, "`"+m.Model+"`")
		}
		if matchesAny(globs, m.Model) {
			continue
		}
		if len(bad) < maxReasons {
			bad = append(bad, modelRef(m, i))
		}
		if len(r.Evidence) < maxEvidence {
			r.Evidence = append(r.Evidence, modelEvidence("not allowed", m, i))
		}
	}
	switch {
	case len(calls) == 0:
		r.Observed = "no model call"
		r.set(status.Pass, "%s made no model call", s.Name)
	case len(bad) == 0:
		r.Observed = strings.Join(models, ", ")
		r.set(status.Pass, "%s asked only for allowed models: %s", s.Name, strings.Join(models, ", "))
	default:
		r.Observed = strings.Join(models, ", ")
		n := 0
		for _, m := range calls {
			if !matchesAny(globs, m.Model) {
				n++
			}
		}
		if n > len(bad) {
			bad = append(bad, fmt.Sprintf("%d more", n-len(bad)))
		}
		r.set(status.Fail, "%s asked for a model that is not allowed (%s) in %s: %s", s.Name, list, plural.Count(n, "call"), strings.Join(bad, ", "))
	}
}

func matchesAny(globs []string, model string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, model); ok {
			return true
		}
	}
	return false
}
