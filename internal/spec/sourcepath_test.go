package spec

import (
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// The claude adapter's project fixture: two sessions, A (2026-03-02) and
// the newer B (2026-03-04), A with a subagent under A/subagents/.
const (
	fixtureA = "0b7e6c1a-5d2f-4c8e-9a31-7f4e2b9d6c05"
	fixtureB = "5f2d9e44-8b1c-4a7d-b3e6-2c9f0a8e1d37"
)

// TestSourceSessions: a claude-transcript path may name a folder of
// sessions, a glob, ~ and ${ENV.NAME}; each session is a test of its own,
// or the newest alone is the test.
func TestSourceSessions(t *testing.T) {
	projects := filepath.ToSlash(filepath.Join(repoRoot(t), "internal", "source", "claude", "testdata", "projects"))
	env := map[string]string{"HOME": projects, "SESSIONS": projects + "/-home-dev-shop"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tc := range []struct {
		name, source string
		want         []string // "id | name | path (strict)"
	}{
		{"a folder", `{format: claude-transcript, path: "` + projects + `/-home-dev-shop"}`, []string{
			"shop/" + fixtureA + " | shop (" + fixtureA + ") | " + projects + "/-home-dev-shop/" + fixtureA + ".jsonl",
			"shop/" + fixtureB + " | shop (" + fixtureB + ") | " + projects + "/-home-dev-shop/" + fixtureB + ".jsonl",
		}},
		{"the newest of a folder", `{format: claude-transcript, path: "` + projects + `/-home-dev-shop/", select: newest}`, []string{
			"shop | shop | " + projects + "/-home-dev-shop/" + fixtureB + ".jsonl",
		}},
		{"~ and a glob of folders", `{format: claude-transcript, path: "~/*-shop", strict: true}`, []string{
			"shop/" + fixtureA + " | shop (" + fixtureA + ") | ~/-home-dev-shop/" + fixtureA + ".jsonl (strict)",
			"shop/" + fixtureB + " | shop (" + fixtureB + ") | ~/-home-dev-shop/" + fixtureB + ".jsonl (strict)",
		}},
		{"a glob of files, newest", `{format: claude-transcript, path: "~/-home-dev-shop/*.jsonl", select: newest}`, []string{
			"shop | shop | ~/-home-dev-shop/" + fixtureB + ".jsonl",
		}},
		{"a variable and one file", `{format: claude-transcript, path: "${ENV.SESSIONS}/` + fixtureA + `.jsonl"}`, []string{
			"shop | shop | ${ENV.SESSIONS}/" + fixtureA + ".jsonl",
		}},
		{"a subagent's file by a glob", `{format: claude-transcript, path: "~/-home-dev-shop/*/subagents/*.jsonl"}`, []string{
			"shop/agent-a7c21f9 | shop (agent-a7c21f9) | ~/-home-dev-shop/" + fixtureA + "/subagents/agent-a7c21f9.jsonl",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"ananke.config.yaml": "version: \"1.0\"\n",
				"shop.ananke.yaml":   "version: \"1.0\"\nname: shop\nsource: " + tc.source + "\nassert: {text: {must_match: x}}\n",
			})
			s, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml"), LookupEnv: lookup})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tt := range s.Tests {
				g := tt.ID + " | " + tt.Name.Value + " | " + tt.Source.Path
				if tt.Source.Strict {
					g += " (strict)"
				}
				if !filepath.IsAbs(tt.Source.Abs) || filepath.Base(tt.Source.Abs) != path.Base(tt.Source.Path) {
					t.Errorf("%s: abs %s for %s", tt.ID, tt.Source.Abs, tt.Source.Path)
				}
				got = append(got, g)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("tests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestSourceSessionIDs: a test id a folder's sessions make must be unique
// like any other.
func TestSourceSessionIDs(t *testing.T) {
	projects := filepath.ToSlash(filepath.Join(repoRoot(t), "internal", "source", "claude", "testdata", "projects"))
	_, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": "version: \"1.0\"\n",
		"shop.ananke.yaml":   "version: \"1.0\"\nname: shop\nsource: {format: claude-transcript, path: \"" + projects + "/-home-dev-shop\"}\nassert: {text: {must_match: x}}\n",
		"b.ananke.yaml":      "version: \"1.0\"\nid: shop/" + fixtureB + "\nname: b\nsource: {format: claude-transcript, path: \"" + projects + "/-home-dev-shop/" + fixtureB + ".jsonl\"}\nassert: {text: {must_match: x}}\n",
	})
	if len(diags) != 1 || !strings.Contains(diags[0].String(), `test id "shop/`+fixtureB+`" is also used by`) {
		t.Errorf("diagnostics %v", diags)
	}
}
