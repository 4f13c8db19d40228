// Package generate asks the language model for test files (docs/models.md,
// `ananke generate`): it tells the model the test file format and what
// to test, reads drafts back as JSON, validates each with the same loader
// `ananke validate` uses, asks once more for the drafts that are invalid —
// giving their diagnostics — and keeps only valid files.
package generate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/spec"
)

// Options say what to generate.
type Options struct {
	// What is what the tests should test, in the user's words.
	What  string
	Count int
	// ConfigPath is the suite's config: drafts are validated against it,
	// as files of its directory.
	ConfigPath string
	// Examples are existing test files, shown to the model as the suite's
	// conventions.
	Examples []string
	// Prompt replaces DefaultPrompt when set.
	Prompt string
}

// Draft is one generated test file.
type Draft struct {
	File string `json:"file"`
	YAML string `json:"yaml"`
}

// Rejected is a draft that stayed invalid, with why.
type Rejected struct {
	Draft
	Problems []string
}

// Result is what generation produced.
type Result struct {
	Valid    []Draft
	Rejected []Rejected
	Usage    model.Usage
}

// Schema is the answer's JSON Schema (strict structured output), made when
// asked for: a value built at package initialisation would cost every run.
func Schema() map[string]any {
	return map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"tests"},
		"properties": map[string]any{"tests": map[string]any{"type": "array", "items": map[string]any{
			"type": "object", "additionalProperties": false, "required": []string{"file", "yaml"},
			"properties": map[string]any{"file": map[string]any{"type": "string"}, "yaml": map[string]any{"type": "string"}},
		}}},
	}
}

// Generate asks for o.Count tests, validates them, and asks once more to
// fix the invalid ones.
func Generate(ctx context.Context, m model.Completer, o Options) (*Result, error) {
	res := &Result{}
	msgs := []model.Message{{Role: "system", Content: systemPrompt(o)}, {Role: "user", Content: ask(o)}}
	drafts, err := request(ctx, m, msgs, res)
	if err != nil {
		return res, err
	}
	rejected := validate(o.ConfigPath, drafts, res)
	if len(rejected) == 0 {
		return res, nil
	}
	reply, _ := json.Marshal(map[string]any{"tests": drafts})
	msgs = append(msgs, model.Message{Role: "assistant", Content: string(reply)}, model.Message{Role: "user", Content: fix(rejected)})
	fixed, err := request(ctx, m, msgs, res)
	if err != nil {
		res.Rejected = rejected
		return res, err
	}
	res.Rejected = validate(o.ConfigPath, fixed, res)
	return res, nil
}

// request sends the conversation and reads the drafts. An answer that is
// not the JSON asked for (prose, or another shape) is asked for once more
// with what was wrong, as every structured request is (docs/models.md).
func request(ctx context.Context, m model.Completer, msgs []model.Message, res *Result) ([]Draft, error) {
	var drafts []Draft
	req := model.Request{Messages: msgs, SchemaName: "test_files", Schema: Schema()}
	usage, err := model.CompleteJSON(ctx, m, req, func(content string) error {
		var answer struct {
			Tests []Draft `json:"tests"`
		}
		if err := json.Unmarshal([]byte(content), &answer); err != nil {
			return fmt.Errorf("not the JSON asked for: %w", err)
		}
		if answer.Tests == nil {
			return errors.New(`no "tests" array`)
		}
		drafts = answer.Tests
		return nil
	}, `Answer with one JSON object {"tests": [{"file": ..., "yaml": ...}]} and nothing else.`)
	res.Usage.Add(usage)
	if err != nil {
		return nil, err
	}
	return drafts, nil
}

// safeName is a file name a draft may have.
var safeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,80}\.ananke\.yaml$`) })

// validate loads each draft as a test file of the suite, keeping the valid
// ones in res and returning the others with their problems.
func validate(configPath string, drafts []Draft, res *Result) []Rejected {
	var out []Rejected
	taken := map[string]bool{}
	for _, d := range res.Valid {
		taken[d.File] = true
	}
	for _, d := range drafts {
		var problems []string
		switch {
		case !safeName().MatchString(d.File):
			problems = []string{fmt.Sprintf("file name %q must be lower case letters, digits, '.', '-' or '_', ending in .ananke.yaml", d.File)}
		case taken[d.File]:
			problems = []string{fmt.Sprintf("file name %q is used by another test", d.File)}
		default:
			problems = check(configPath, d)
		}
		if len(problems) > 0 {
			out = append(out, Rejected{Draft: d, Problems: problems})
			continue
		}
		taken[d.File] = true
		res.Valid = append(res.Valid, d)
	}
	return out
}

// check loads one draft with the suite's config, from a scratch directory
// beside the config (so relative paths resolve as they will), and returns
// its diagnostics with the draft's own file name.
func check(configPath string, d Draft) []string {
	dir, err := os.MkdirTemp(filepath.Dir(configPath), ".ananke-generate-")
	if err != nil {
		return []string{"cannot check the draft: " + err.Error()}
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, d.File)
	if err := os.WriteFile(path, []byte(d.YAML), 0o644); err != nil {
		return []string{"cannot check the draft: " + err.Error()}
	}
	_, err = spec.Load(spec.Options{ConfigPath: configPath, Paths: []string{path}})
	if err == nil {
		return nil
	}
	diags, ok := err.(diag.Diagnostics)
	if !ok {
		return []string{err.Error()}
	}
	var out []string
	for _, dg := range diags {
		out = append(out, strings.ReplaceAll(dg.String(), path, d.File))
	}
	return out
}
