package spec

import (
	"math"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Defaults of the model section.
const (
	DefaultModelTimeoutMs = 60_000
	DefaultModelCache     = ".ananke/cache"
)

// PromptNames are the prompts a config may override with its own file.
var PromptNames = []string{"judge", "simulator", "generate"}

// Model is the config's model section: the one OpenAI-compatible endpoint
// the user simulator, judge assertions and test generation talk to.
type Model struct {
	Pos      diag.Pos
	Endpoint vars.Template
	Name     vars.Name
	// APIKey is a secret, like every value read from the environment.
	APIKey      vars.Template
	Temperature *float64
	Seed        *int64
	TimeoutMs   int64
	// Cache is the cache directory, relative to the config's directory;
	// "" when cache: false.
	Cache string
	// Prompts maps a prompt name (PromptNames) to a file, relative to the
	// config's directory, replacing Ananke's own prompt.
	Prompts map[string]string
}

var (
	modelFields = []string{"endpoint", "name", "api_key", "temperature", "seed", "timeout_ms", "cache", "prompts"}
)

func (l *loader) model(n *yaml.Node) *Model {
	f, ok := l.Fields(n, "model", modelFields)
	if !ok {
		return nil
	}
	m := &Model{Pos: l.Pos(l.DerefQuiet(n)), TimeoutMs: DefaultModelTimeoutMs, Cache: DefaultModelCache}
	l.Require(n, f, "model", "endpoint", "name")
	if p, ok := f["endpoint"]; ok {
		m.Endpoint = l.url(p.Val, "model.endpoint")
	}
	if p, ok := f["name"]; ok {
		m.Name, _ = l.Name(p.Val, "model.name")
	}
	if p, ok := f["api_key"]; ok {
		m.APIKey, _ = l.Template(p.Val, "model.api_key")
	}
	if p, ok := f["temperature"]; ok {
		if s, ok := l.Scalar(p.Val, "model.temperature", "a number from 0 to 2"); ok {
			v, err := parseFloat(s)
			if err != nil || v < 0 || v > 2 {
				l.Errorf(s, "model.temperature must be a number from 0 to 2, got %s", s.Value)
			} else {
				m.Temperature = &v
			}
		}
	}
	if p, ok := f["seed"]; ok {
		if v, ok := l.Integer(p.Val, "model.seed", math.MinInt64, math.MaxInt64); ok {
			m.Seed = &v
		}
	}
	if p, ok := f["timeout_ms"]; ok {
		m.TimeoutMs, _ = l.Integer(p.Val, "model.timeout_ms", 1, math.MaxInt64)
	}
	if p, ok := f["cache"]; ok {
		m.Cache = l.cache(p.Val)
	}
	if p, ok := f["prompts"]; ok {
		m.Prompts = l.prompts(p.Val)
	}
	return m
}

// cache reads a directory, or false to disable the cache.
func (l *loader) cache(n *yaml.Node) string {
	s, ok := l.Scalar(n, "model.cache", "a directory or false")
	if !ok {
		return DefaultModelCache
	}
	if s.ShortTag() == "!!bool" {
		if b, _ := l.Boolean(s, "model.cache"); b {
			l.Errorf(s, "model.cache: true is the default; write a directory, or false to disable the cache")
			return DefaultModelCache
		}
		return ""
	}
	if s.Value == "" {
		l.Errorf(s, "model.cache must name a directory, or be false")
	}
	return s.Value
}

func (l *loader) prompts(n *yaml.Node) map[string]string {
	f, ok := l.Fields(n, "model.prompts", PromptNames)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, name := range PromptNames {
		if p, ok := f[name]; ok {
			if s, _, ok := l.Text(p.Val, "model.prompts."+name); ok {
				out[name] = s
			}
		}
	}
	return out
}

// parseFloat reads a YAML number (an int or a float).
func parseFloat(s *yaml.Node) (float64, error) {
	if tag := s.ShortTag(); tag != "!!int" && tag != "!!float" {
		return 0, strconv.ErrSyntax
	}
	v, err := strconv.ParseFloat(s.Value, 64)
	if err == nil && v != v {
		return 0, strconv.ErrSyntax
	}
	return v, err
}

// checkModel reports what needs the config's model section when there is
// none: a simulator, and every judge.
func checkModel(cfg *Config, tests []*Test, diags *diag.Diagnostics) {
	if m := cfg.Model; m != nil {
		for _, r := range templateRefs(m.Endpoint, m.APIKey) {
			if !r.Env {
				diags.Add(r.Pos, "unknown variable %s: the model is set up before any hook runs (environment variables are ${ENV.NAME})", r)
			}
		}
		return
	}
	const hint = "add a model: section to the config (docs/models.md)"
	seen := map[diag.Pos]bool{} // a named block's judge, extended twice, is one problem
	judged := func(b *assertion.Block) {
		for _, j := range b.All(assertion.KindJudge) {
			if !seen[j.Pos] {
				seen[j.Pos] = true
				diags.Add(j.Pos, "a judge needs a language model: %s", hint)
			}
		}
	}
	judged(cfg.Target.Assert)
	for _, t := range tests {
		if t.Simulator != nil {
			diags.Add(t.Simulator.Pos, "a simulator needs a language model: %s", hint)
		}
		judged(t.Assert)
		for _, turn := range t.Turns {
			judged(turn.Assert)
		}
		for _, c := range t.Checkpoints {
			judged(c.Assert)
		}
	}
}
