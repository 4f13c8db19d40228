package spec

import (
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/doubles/decl"
)

// What Ananke serves in the agent's backend (docs/doubles.md): the
// config's backend: and doubles:, a test file's doubles: and a turn's.
// internal/doubles/decl reads the doubles; spec places them.

// Backend is the config's backend: section.
type Backend struct {
	// ForwardTestHeader says the agent forwards the Ananke-Test header
	// to its tool and model clients, so that tests using the backend need
	// not run one at a time.
	ForwardTestHeader bool
}

var backendFields = []string{"forward_test_header"}

// backend reads the config's backend: section.
func (l *loader) backend(n *yaml.Node) Backend {
	var b Backend
	f, ok := l.Fields(n, "backend", backendFields)
	if !ok {
		return b
	}
	if p, ok := f["forward_test_header"]; ok {
		b.ForwardTestHeader, _ = l.Boolean(p.Val, "backend.forward_test_header")
	}
	return b
}

// testBackend reads a test file's backend:, once its source, gateway:
// and doubles are read. backend: false says the test's agent calls
// neither the doubles nor the gateway; a test that answers doubles or
// faults model calls says it does, and one with a source has no agent.
func (l *loader) testBackend(f map[string]decode.Pair, t *Test) {
	p, ok := f["backend"]
	if !ok {
		return
	}
	uses, ok := l.Boolean(p.Val, "backend")
	if !ok {
		return
	}
	at := l.DerefQuiet(p.Val)
	if uses {
		if t.Source != nil {
			l.Errorf(at, "backend: true: a test with a source talks to no agent, so it never uses the backend; remove backend:")
		}
		return
	}
	t.NoBackend = true
	for _, key := range []string{"doubles", "gateway"} {
		if q, ok := f[key]; ok {
			l.Errorf(at, "backend: false says the test's agent calls neither the tool doubles nor the model gateway, but the test declares %s: (line %d); remove one of the two", key, l.DerefQuiet(q.Key).Line)
		}
	}
	for i, turn := range t.Turns {
		if turn.doubles != nil {
			l.Errorf(at, "backend: false says the test's agent calls neither the tool doubles nor the model gateway, but %s declares doubles: (line %d); remove one of the two", decode.Index("turns", i), turn.Pos.Line)
		}
	}
}

// UsesBackend reports whether the test uses the backend (docs/backend.md):
// the config declares tool doubles or a model gateway, the test plays
// turns against the agent (it has no source:), and its file does not
// say backend: false. Each attempt of such a test is bound to the
// backend, and, unless the agent forwards the Ananke-Test header, runs
// alone among them.
func (t *Test) UsesBackend(cfg *Config) bool {
	return cfg != nil && (cfg.Doubles != nil || cfg.Gateway != nil) && t.Source == nil && !t.NoBackend
}

// turnDoubles reads a turn's doubles:, if it has one.
func (l *loader) turnDoubles(f map[string]decode.Pair, what string) decl.Answers {
	p, ok := f["doubles"]
	if !ok {
		return nil
	}
	return decl.ReadAnswers(l.Decoder, p.Val, what+".doubles")
}

// testDoubles reads a test file's doubles: and gathers its turns' into
// the test's plan (nil when it answers nothing).
func (l *loader) testDoubles(f map[string]decode.Pair, t *Test) *decl.Plan {
	var own decl.Answers
	if p, ok := f["doubles"]; ok {
		own = decl.ReadAnswers(l.Decoder, p.Val, "doubles")
	}
	turns := map[int]decl.Answers{}
	for i, turn := range t.Turns {
		if turn.doubles != nil {
			turns[i] = turn.doubles
		}
	}
	return decl.NewPlan(own, turns)
}

// checkDoubles checks each test's answers against the config's doubles.
func checkDoubles(cfg *Config, tests []*Test, diags *diag.Diagnostics) {
	for _, t := range tests {
		decl.Check(cfg.Doubles, t.Doubles, diags)
	}
}

func backendSchema() decode.Obj {
	return decode.Object("What Ananke serves in the agent's backend (docs/doubles.md).", backendFields, decode.Obj{
		"forward_test_header": decode.Bool("The agent forwards the Ananke-Test header it receives to its MCP and model clients: tests that use tool doubles or the model gateway may then run in parallel."),
	})
}
