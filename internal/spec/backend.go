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
