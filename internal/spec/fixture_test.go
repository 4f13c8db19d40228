package spec

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/vars"
)

// TestFixtureFiles: result_file and output_file read fixtures beside the
// test, literally, and report every problem with its place — in the test
// file, or inside a fixture that is not JSON.
func TestFixtureFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"fixtures/fx.web_search.current_ai_news.json": `{"results": [{"title": "Costs ${not a ref}", "url": "https://example.com/a"}]}` + "\n",
		"fixtures/fx.web_fetch.article_a.txt":         "Article A body.\n",
		"fixtures/fx.session.json":                    `{"TOKEN": "t-1", "N": 2}`,
		"fixtures/fx.broken.json":                     "{\n  \"a\": 1,\n  \"b\": \n}\n",
		"fixtures/fx.array.json":                      `[1, 2]`,
	})
	path := filepath.Join(dir, "news.ananke.yaml")
	tt, diags := parseTestAt(t, path, `version: "1.0"
name: news
hooks:
  - output_file: fixtures/fx.session.json
tools:
  - name: web_search
    result_file: fixtures/fx.web_search.current_ai_news.json
  - name: web_fetch
    results:
      - args_match: {url: "a$"}
        result_file: fixtures/fx.web_fetch.article_a.txt
turns:
  - user: hi
`)
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if got := tt.Hooks[0].Output; got["TOKEN"] != "t-1" || got["N"] != "2" || len(tt.Hooks[0].Cmd) != 0 {
		t.Fatalf("hook output = %v, cmd %v", got, tt.Hooks[0].Cmd)
	}
	js, err := tt.Tools[0].Result.Resolve(vars.NewVars(nil))
	if err != nil || !strings.Contains(string(js), `"Costs ${not a ref}"`) || tt.Tools[0].Result.IsString() {
		t.Fatalf("web_search result = %s, %v (a fixture is literal JSON)", js, err)
	}
	r := tt.Tools[1].Results[0].Result
	if s, err := r.ResolveString(vars.NewVars(nil)); err != nil || s != "Article A body.\n" || !r.IsString() {
		t.Fatalf("web_fetch result = %q, %v (a text fixture is its text)", s, err)
	}

	_, diags = parseTestAt(t, path, `version: "1.0"
name: broken
hooks:
  - output_file: fixtures/fx.array.json
  - output_file: fixtures/fx.session.json
    cmd: [echo]
tools:
  - name: a
    result_file: fixtures/missing.json
  - name: b
    result_file: fixtures/fx.broken.json
  - name: c
    result: 1
    result_file: fixtures/fx.session.json
  - name: d
    results:
      - args_match: {x: "y"}
turns:
  - user: hi
`)
	want := []string{
		"news.ananke.yaml:4:18: hooks[0].output_file: fixtures/fx.array.json: output is an array, not a JSON object",
		"news.ananke.yaml:5:5: hooks[1]: set cmd or output_file, not both",
		"news.ananke.yaml:9:18: tools[0].result_file: fixtures/missing.json: cannot read file: no such file or directory",
		"fx.broken.json:4:1: fixture is not JSON: invalid character '}' looking for beginning of value",
		"news.ananke.yaml:14:5: tools[2]: set result or result_file, not both",
		"news.ananke.yaml:17:9: tools[3].results[0] is missing required field \"result\" (or \"result_file\")",
	}
	for _, w := range want {
		if !hasDiag(diags, w) {
			t.Errorf("missing diagnostic %q in:\n%v", w, diags)
		}
	}
	if len(diags) != len(want) {
		t.Errorf("%d diagnostics, want %d:\n%v", len(diags), len(want), diags)
	}
}
