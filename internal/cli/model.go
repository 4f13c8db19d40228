package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// languageModel is the config's model, ready for the engine: the client,
// the prompts that replace Ananke's, and the secrets it read.
type languageModel struct {
	client         *model.Client // nil: the config has no model section
	prompts        engine.Prompts
	generatePrompt string
	secrets        []string
}

// newModel builds the model client from the config's model section (with
// ${ENV.*} resolved; the cache under the config's directory unless
// --no-cache) and reads the prompt files it names.
func (a *app) newModel(cfg *spec.Config, noCache bool) (*languageModel, error) {
	m := cfg.Model
	if m == nil {
		return &languageModel{}, nil
	}
	vars := vars.NewVars(a.lookupEnv)
	// A URL field: its password is a secret, not the whole URL, which
	// model errors name (docs/files.md, "Variables").
	endpoint, err := m.Endpoint.ResolveURL(vars)
	if err != nil {
		return nil, fmt.Errorf("model.endpoint: %w", err)
	}
	key, err := m.APIKey.Resolve(vars)
	if err != nil {
		return nil, fmt.Errorf("model.api_key: %w", err)
	}
	mc := model.Config{Endpoint: endpoint, Name: m.Name.Value, APIKey: key, Temperature: m.Temperature, Seed: m.Seed,
		Timeout: time.Duration(m.TimeoutMs) * time.Millisecond}
	if m.Cache != "" && !noCache {
		mc.CacheDir = m.Cache
		if !filepath.IsAbs(mc.CacheDir) {
			mc.CacheDir = filepath.Join(cfg.Dir, mc.CacheDir)
		}
	}
	client, err := model.New(mc)
	if err != nil {
		return nil, err
	}
	lm := &languageModel{client: client, secrets: append(vars.Secrets(), key)}
	for name, dst := range map[string]*string{"judge": &lm.prompts.Judge, "simulator": &lm.prompts.Simulator, "generate": &lm.generatePrompt} {
		path, ok := m.Prompts[name]
		if !ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(cfg.Dir, path))
		if err != nil {
			return nil, fmt.Errorf("model.prompts.%s: %w", name, err)
		}
		*dst = string(b)
	}
	return lm, nil
}

// completer is the client as the engine sees it: nil when there is none
// (a nil *model.Client in the interface would not be nil).
func (lm *languageModel) completer() engine.Completer {
	if lm.client == nil {
		return nil
	}
	return lm.client
}
