package spec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/diag"
)

// FuzzLoad feeds arbitrary bytes to both file decoders: loading must never
// panic, and a rejected file must say why with a position.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(repoRoot(f), "examples", "*", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join(repoRoot(f), "examples", "*", "*", "*.yaml"))
	for _, p := range append(seeds, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("a: &a [*a]"))
	f.Add([]byte("version: \"1.0\"\nname: x\nturns: [{user: \"${\"}]"))
	f.Add([]byte("version: \"1.0\"\npricing: {\"a*\": [{provider: p, input: 1e308, output: -0}], \"[\": {input: .inf}}\nbudget: {max_cost_usd: 0x10, max_total_tokens: 9223372036854775808}\nname: x\nturns: [{user: hi, assert: {budget: {max_cost_usd: .nan, max_total_tokens: false}}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range []string{"config", "test"} {
			var diags diag.Diagnostics
			l := newLoader("fuzz.yaml", &diags)
			doc := l.ParseBytes(data)
			if doc == nil {
				if len(diags) == 0 {
					t.Fatalf("%s: nil document without a diagnostic", kind)
				}
				continue
			}
			if kind == "config" {
				resolveExtends(l.config(doc), nil, &diags)
			} else {
				test := l.test(doc)
				resolveExtends(&Config{}, []*Test{test}, &diags)
			}
			for _, d := range diags {
				if d.Pos.File != "fuzz.yaml" || d.Message == "" {
					t.Fatalf("%s: diagnostic without position or message: %+v", kind, d)
				}
			}
		}
	})
}

// FuzzDataset feeds arbitrary lines to the dataset reader: it must never
// panic, and every problem has a line and a message.
func FuzzDataset(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(repoRoot(f), "examples", "*", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join(repoRoot(f), "testdata", "interop", "*", "*.jsonl"))
	for _, p := range append(seeds, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"id": "a", "input": [{"role": "user", "content": [{"type": "text", "text": "x"}]}], "assertions": [{"type": "tool_called", "name": "t", "args": {"a": [1, {"b": null}]}}]}`))
	f.Add([]byte(`{"id": "a", "input": "x", "assertions": [{"type": "budget", "params": {"max_cost_usd": 1e-320, "max_input_tokens": 1.5}}, {"type": "budget"}]}`))
	f.Add([]byte(`{"id": "a", "simulator": {"goal": "g"}, "checkpoints": [{"id": "c", "assertions": [{"type": "ananke", "assert": {"extends": "x"}}]}]}`))
	f.Add([]byte("{\"id\": \"\\ud83d\", \"input\": 1e999}\n[[[[[]]]]]\n\"x\""))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "f.ananke.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var diags diag.Diagnostics
		tests := LoadDataset(p, dir, &diags)
		resolveExtends(&Config{}, tests, &diags)
		for _, d := range diags {
			if d.Pos.File != p || d.Message == "" || d.Pos.Line < 1 {
				t.Fatalf("diagnostic without position or message: %+v", d)
			}
		}
		for _, tt := range tests {
			if tt.ID == "" || tt.Pos.Line < 1 {
				t.Fatalf("test without id or line: %+v", tt)
			}
		}
	})
}
