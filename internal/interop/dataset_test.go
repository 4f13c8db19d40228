//go:build unix

package interop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// datasets runs the generated 200-case datasets against the example agent
// and Mastra in parallel, and checks every case reaches the verdict its
// tags say; that the before_all variable reached every case (each case's
// after hook needs it, and wrote its file); that the after hooks read the
// failing results; and that after_all read the outcome.
func datasets(t *testing.T, bin, dir string, urls map[string]string) {
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			out, reports := t.TempDir(), t.TempDir()
			tag := "run-" + p.name
			args := []string{"run", "--parallel", "8", "--config", filepath.Join(dir, "dataset", p.name, "ananke.config.yaml"), "--report-dir", reports}
			stdout, exit := ananke(t, bin, urls, []string{"DATASET_OUT=" + out, "DATASET_TAG=" + tag}, args...)
			if exit != 1 {
				t.Fatalf("exit %d, want 1 (some cases fail on purpose):\n%s", exit, stdout)
			}
			validateReports(t, reports)
			var sum struct {
				Hooks []struct {
					Phase, Status string
				} `json:"hooks"`
				Tests []struct {
					ID, Status string
					Tags       []string `json:"tags"`
					Line       int      `json:"line"`
					Assertions []struct {
						ID, Kind, Status string
					} `json:"assertions"`
				} `json:"tests"`
			}
			b, err := os.ReadFile(filepath.Join(reports, "summary.json"))
			if err != nil || json.Unmarshal(b, &sum) != nil {
				t.Fatalf("summary.json: %v", err)
			}
			if len(sum.Tests) != datasetSize {
				t.Fatalf("%d tests, want %d", len(sum.Tests), datasetSize)
			}
			if fmt.Sprint(sum.Hooks) != "[{before_all pass} {after_all pass}]" {
				t.Errorf("hooks = %v", sum.Hooks)
			}
			counts := map[string]int{}
			for i, got := range sum.Tests {
				want := ""
				for _, tag := range got.Tags {
					want = cmpOr(strings.TrimPrefix(tag, "expect-"), want, strings.HasPrefix(tag, "expect-"))
				}
				counts[got.Status]++
				if got.Status != want || got.Line != i+1 {
					t.Errorf("%s (line %d): %s, want %s", got.ID, got.Line, got.Status, want)
				}
				if got.Status == "skipped" {
					continue
				}
				var seen attemptSeen
				readJSON(t, filepath.Join(out, "after-"+tag+"-"+strings.TrimPrefix(got.ID, "cases/")+".json"), &seen)
				if seen.Status != got.Status || seen.Test.ID != got.ID {
					t.Errorf("%s: its after hook read %s for %s", got.ID, seen.Status, seen.Test.ID)
				}
				if want == "fail" {
					// The failure the after hook read is the script's and the text's.
					var failed []string
					for _, a := range seen.Assertions {
						if a.Status == "fail" {
							failed = append(failed, a.ID)
						}
					}
					if !slices.Equal(failed, []string{"turn[0].text.contains[0]", "turn[0].script[0]"}) {
						t.Errorf("%s: the after hook read failures %v", got.ID, failed)
					}
				}
			}
			if counts["pass"] != 179 || counts["fail"] != 20 || counts["skipped"] != 1 {
				t.Errorf("statuses %v", counts)
			}
			var outcome outcomeSeen
			readJSON(t, filepath.Join(out, "after-all-"+tag+".json"), &outcome)
			if outcome.Status != "fail" || outcome.Totals["pass"] != 179 || len(outcome.Tests) != datasetSize {
				t.Errorf("after_all read %s %v", outcome.Status, outcome.Totals)
			}
		})
	}
}

// brokenDataset: a dataset with one broken line gives exactly that line's
// problems, at their columns, and nothing runs.
func brokenDataset(t *testing.T, bin, dir string, urls map[string]string) {
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(filepath.Join(dir, "dataset"))); err != nil {
		t.Fatal(err)
	}
	cases := filepath.Join(tmp, "agent", "cases.ananke.jsonl")
	b, err := os.ReadFile(cases)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	broken := `{"id":"broken","input":[{"role":"user","content":"Hi"},{"role":"assistant","content":[{"type":"text","text":"x"}]},{"role":"user","content":"What is the weather in Paris?"}],"assertions":[{"type":"tool_caled","name":"get_weather"},{"type":"contains","vale":"21"}],"after":{"cmd":["../after.sh","${RUN_TAG}","broken"]}}` + "\n"
	lines = slices.Insert(lines, 136, broken)
	if err := os.WriteFile(cases, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, exit := ananke(t, bin, urls, nil, "validate", "--config", filepath.Join(tmp, "agent", "ananke.config.yaml"))
	if exit != 3 {
		t.Fatalf("exit %d, want 3:\n%s", exit, out)
	}
	want := []string{
		cases + `:137:86: input[1]: only a user message may be a list of parts; this assistant message must be text`,
		cases + `:137:197: assertions[0].type "tool_caled" is not an assertion type (did you mean "tool_called"?)`,
		cases + `:137:232: assertions[1] is missing required field "value"`,
		cases + `:137:251: unknown field "vale" in assertions[1] (did you mean "value"?)`,
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, cases) {
			got = append(got, l)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("validate printed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// adHoc: ananke run -i sends one message to each agent, and prints the
// whole reply and the tool calls; -i with a dataset runs it.
func adHoc(t *testing.T, bin, dir string, urls map[string]string) {
	for _, tc := range []struct{ producer, reply string }{
		{"agent", "agent: It is sunny and 21°C in Paris."},
		{"mastra", "agent: It is sunny and 21°C in Paris."},
	} {
		out, exit := ananke(t, bin, urls, nil, "run", "-i", "What is the weather in Paris?", "--endpoint", urls[tc.producer]+"/agent", "--report-dir", t.TempDir())
		if exit != 0 || !strings.Contains(out, tc.reply) || !strings.Contains(out, `tool get_weather {"city":"Paris"}`) {
			t.Errorf("%s: exit %d:\n%s", tc.producer, exit, out)
		}
	}
	dataset := filepath.Join(dir, "dataset", "mastra", "cases.ananke.jsonl")
	out, exit := ananke(t, bin, urls, []string{"DATASET_OUT=" + t.TempDir()}, "run", "--config", filepath.Join(dir, "dataset", "mastra", "ananke.config.yaml"),
		"--run", "history", "--report-dir", t.TempDir(), "-i", dataset)
	if exit != 0 || !strings.Contains(out, "Tests: 20 total, 20 passed") {
		t.Errorf("-i %s: exit %d:\n%s", dataset, exit, out)
	}
}

// ananke runs the binary with the producers' environment (and more) and
// returns its output and exit code.
func ananke(t *testing.T, bin string, urls map[string]string, env []string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(producerEnv(urls), env...)
	return combined(t, cmd)
}

// combined runs cmd and returns its output, stdout and stderr together,
// and its exit code; a command that could not run fails the test.
func combined(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return string(out), 0
}

// cmpOr returns a when ok, else b.
func cmpOr(a, b string, ok bool) string {
	if ok {
		return a
	}
	return b
}

// attemptSeen is what an after hook reads.
type attemptSeen struct {
	Test struct {
		ID string `json:"id"`
	} `json:"test"`
	Status     string `json:"status"`
	Assertions []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"assertions"`
}

// outcomeSeen is what an after_all hook reads.
type outcomeSeen struct {
	Status string         `json:"status"`
	Totals map[string]int `json:"totals"`
	Tests  []struct {
		ID string `json:"id"`
	} `json:"tests"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was not written: the hook did not run", filepath.Base(path))
		return
	}
	if err != nil || json.Unmarshal(b, v) != nil {
		t.Errorf("%s: %v\n%s", path, err, b)
	}
}
