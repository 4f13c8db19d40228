package decl

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/doubles/decl/decltest"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// FuzzRead reads any YAML as a config's doubles: and a test's answers
// (under answers:), with result files served from memory. Reading never
// panics; every problem has a place; and a file read without a problem
// gives schemas and results that are JSON.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/read/*/*.yaml")
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(bytes.Replace(data, []byte("\ndoubles:"), []byte("\nanswers:"), 1))
		f.Add(data)
	}
	f.Add([]byte("doubles: {listen: ':1', tools: [{name: t, result_file: fixtures/a.json, output_schema: {type: object}}]}\nanswers: {t: {result_file: fixtures/t.txt}}"))
	f.Add([]byte("doubles: &a {listen: ':1', tools: [{name: t, match: [{args: *a, result: *a}]}]}"))
	fixtures := map[string]string{"fuzz/fixtures/a.json": `{"sku": "A", "n": [1, 2.5]}`, "fuzz/fixtures/t.txt": "text\n"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var diags diag.Diagnostics
		d := &decode.Decoder{File: "fuzz/config.yaml", Diags: &diags}
		root := d.ParseBytes(data)
		if root == nil {
			return
		}
		r := &reader{Decoder: d, read: func(path string) ([]byte, error) {
			if s, ok := fixtures[filepath.ToSlash(path)]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		}}
		var c *Config
		if n := decltest.Member(root, "doubles"); n != nil {
			c = r.config(n)
		}
		var p *Plan
		if n := decltest.Member(root, "answers"); n != nil {
			p = NewPlan(r.answers(n, "answers"), nil)
		}
		Check(c, p, &diags)
		for _, dg := range diags {
			if dg.Pos.File == "" || dg.Pos.Line < 1 || dg.Pos.Col < 1 || dg.Message == "" {
				t.Fatalf("a problem without a place: %+v", dg)
			}
		}
		if len(diags) > 0 || c == nil {
			return
		}
		for _, tool := range c.Tools {
			var schema map[string]any
			if err := json.Unmarshal(tool.InputSchema, &schema); err != nil || schema["type"] != "object" {
				t.Fatalf("tool %q: input schema %s: %v", tool.Name, tool.InputSchema, err)
			}
			ch := c.Choose(p, 0, tool.Name, nil)
			if ch.Reply == nil || ch.Reply.Fault != "" {
				continue
			}
			if !json.Valid(ch.Reply.Result) {
				t.Fatalf("tool %q: result %q is not JSON", tool.Name, ch.Reply.Result)
			}
		}
	})
}
