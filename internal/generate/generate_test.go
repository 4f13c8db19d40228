package generate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/model"
)

type scripted struct {
	answers [][]Draft
	reqs    []model.Request
}

func (s *scripted) Complete(_ context.Context, req model.Request) (model.Reply, error) {
	s.reqs = append(s.reqs, req)
	b, _ := json.Marshal(map[string]any{"tests": s.answers[min(len(s.reqs), len(s.answers))-1]})
	return model.Reply{Content: string(b), Usage: model.Usage{Requests: 1, PromptTokens: 900, CompletionTokens: 300}}, nil
}

func config(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "ananke.config.yaml")
	cfg := "version: \"1.0\"\ntarget: {type: agui, endpoint: \"http://127.0.0.1:1/agent\", agentId: shop}\n"
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const (
	good   = "version: \"1.0\"\nname: refund a damaged item\nturns:\n  - user: \"My shoe arrived broken\"\n    assert: {tools: {require: [{name: issue_refund}]}}\n"
	typo   = "version: \"1.0\"\nname: typo\nturns:\n  - usr: hi\n"
	fixed  = "version: \"1.0\"\nname: typo\nturns:\n  - user: hi\n"
	noName = "version: \"1.0\"\nturns: [{user: hi}]\n"
)

func TestGenerate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answers  [][]Draft
		valid    []string
		rejected []string
		problem  string
		requests int
	}{
		{"all valid", [][]Draft{{{"refund.ananke.yaml", good}}}, []string{"refund.ananke.yaml"}, nil, "", 1},
		{"fixed on the second ask", [][]Draft{{{"refund.ananke.yaml", good}, {"typo.ananke.yaml", typo}}, {{"typo.ananke.yaml", fixed}}},
			[]string{"refund.ananke.yaml", "typo.ananke.yaml"}, nil, "", 2},
		{"still invalid", [][]Draft{{{"typo.ananke.yaml", noName}}, {{"typo.ananke.yaml", noName}}}, nil, []string{"typo.ananke.yaml"},
			`typo.ananke.yaml:1:1: test is missing required field "name"`, 2},
		{"bad file name", [][]Draft{{{"../evil.yaml", good}}, {{"../evil.yaml", good}}}, nil, []string{"../evil.yaml"}, "must be lower case letters", 2},
		{"same name twice", [][]Draft{{{"a.ananke.yaml", good}, {"a.ananke.yaml", fixed}}, {{"a.ananke.yaml", fixed}}}, []string{"a.ananke.yaml"}, []string{"a.ananke.yaml"},
			"is used by another test", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &scripted{answers: tc.answers}
			cfg := config(t)
			res, err := Generate(context.Background(), m, Options{What: "refunds", Count: 2, ConfigPath: cfg})
			if err != nil {
				t.Fatal(err)
			}
			var valid, rejected []string
			for _, d := range res.Valid {
				valid = append(valid, d.File)
			}
			for _, r := range res.Rejected {
				rejected = append(rejected, r.File)
				if tc.problem != "" && !strings.Contains(strings.Join(r.Problems, "\n"), tc.problem) {
					t.Errorf("problems of %s: %q; want %q", r.File, r.Problems, tc.problem)
				}
			}
			if strings.Join(valid, ",") != strings.Join(tc.valid, ",") || strings.Join(rejected, ",") != strings.Join(tc.rejected, ",") {
				t.Errorf("valid %q rejected %q; want %q %q", valid, rejected, tc.valid, tc.rejected)
			}
			if len(m.reqs) != tc.requests || res.Usage.Requests != tc.requests {
				t.Errorf("%d requests, usage %+v", len(m.reqs), res.Usage)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(cfg), ".ananke-generate-*")); len(left) > 0 {
				t.Errorf("scratch directories left: %q", left)
			}
		})
	}
}

// TestPrompt: the model is told the format (the test file schema), the
// suite's examples and what to test, and asked for strict JSON.
func TestPrompt(t *testing.T) {
	m := &scripted{answers: [][]Draft{{{"refund.ananke.yaml", good}}}}
	_, err := Generate(context.Background(), m, Options{What: "refunds of damaged items", Count: 4, ConfigPath: config(t), Examples: []string{"version: \"1.0\"\nname: example\n"}})
	if err != nil {
		t.Fatal(err)
	}
	sys, user := m.reqs[0].Messages[0].Content, m.reqs[0].Messages[1].Content
	for _, want := range []string{"You write Ananke test files", `"title": "Ananke test file (*.ananke.yaml)"`, "Example 1 of this suite's tests:\nversion: \"1.0\"\nname: example"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	if user != "Write 4 test files that test: refunds of damaged items" || m.reqs[0].SchemaName != "test_files" {
		t.Errorf("user %q schema %q", user, m.reqs[0].SchemaName)
	}
}
