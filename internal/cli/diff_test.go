package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestDiffRuns runs the quickstart twice, with one test's expectation
// broken in between: ananke diff lists that test, and only it, as a new
// failure.
func TestDiffRuns(t *testing.T) {
	dir := copySuite(t, "quickstart")
	base, head := filepath.Join(dir, "base"), filepath.Join(dir, "head")
	if r := run(t, dir, nil, "run", "--report-dir", base); r.code != ExitPass {
		t.Fatalf("base run: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	weather := filepath.Join(dir, "weather.ananke.yaml")
	b, err := os.ReadFile(weather)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), `must_match: "sunny and 21°C in Paris"`, `must_match: "rainy in Paris"`, 1)
	if broken == string(b) {
		t.Fatal("the quickstart's weather test changed: update this test")
	}
	if err := os.WriteFile(weather, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, dir, nil, "run", "--report-dir", head); r.code != ExitFail {
		t.Fatalf("head run: exit %d; want 1\n%s%s", r.code, r.out, r.errOut)
	}

	r := run(t, dir, nil, "diff", base, head)
	if r.code != ExitPass {
		t.Fatalf("diff: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	// Durations are measured, so a section of them may come and go; the
	// statuses may not.
	var sections []string
	for _, m := range regexp.MustCompile(`(?m)^(\S[^:\n]*) \(\d+\):$`).FindAllStringSubmatch(r.out, -1) {
		if !strings.HasPrefix(m[1], "Slower") && !strings.HasPrefix(m[1], "Faster") {
			sections = append(sections, m[0])
		}
	}
	if want := []string{"New failures (1):"}; !slices.Equal(sections, want) {
		t.Errorf("sections %q; want %q\n%s", sections, want, r.out)
	}
	for _, want := range []string{
		"1 new failure\nCompared with " + base + "\n",
		"Tests: 6 total, 6 → 5 passed, 0 → 1 failed; pass rate 100% → 83.3%; duration ",
		"  pass → fail  weather in Paris uses the weather tool  weather.ananke.yaml:1\n",
		"      weather.ananke.yaml:16:",
		"turn[0].text.must_match[0]: ",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("diff lacks %q:\n%s", want, r.out)
		}
	}

	if r := run(t, dir, nil, "diff", "--fail-on-new", "--format", "markdown", "--base-label", "[main](https://example.com)", base, head); r.code != ExitFail ||
		!strings.HasPrefix(r.out, "**1 new failure**\n\nCompared with [main](https://example.com)\n\n") {
		t.Errorf("diff --fail-on-new --format markdown: exit %d; want 1\n%s%s", r.code, r.out, r.errOut)
	}
	if r := run(t, dir, nil, "diff", "--fail-on-new", head, base); r.code != ExitPass || !strings.HasPrefix(r.out, "1 fixed\n") {
		t.Errorf("diff --fail-on-new HEAD BASE: exit %d; want 0 and 1 fixed\n%s%s", r.code, r.out, r.errOut)
	}
}

// TestDiffSame: a directory compared with itself has no change.
func TestDiffSame(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	if err := reportdir.Write(dir, reporttest.Report()); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", nil, "diff", "--fail-on-new", dir, dir)
	if r.code != ExitPass || !strings.HasPrefix(r.out, "no change in test results; 3 still failing\n") {
		t.Errorf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}

func TestDiffInvalid(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good")
	if err := reportdir.Write(good, reporttest.Report()); err != nil {
		t.Fatal(err)
	}
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "summary.json"), []byte(`{"schema":"ananke.report/v9"}`), 0o644)
	missing := filepath.Join(t.TempDir(), "nope")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no dirs", nil, "ananke diff: name two report directories: BASE_DIR HEAD_DIR"},
		{"one dir", []string{good}, "name two report directories"},
		{"three dirs", []string{good, good, good}, "name two report directories"},
		{"bad format", []string{"--format", "html", good, good}, `ananke diff: --format "html": want text or markdown`},
		{"bad flag", []string{"--nope", good, good}, "ananke diff: unknown flag --nope"},
		{"missing base", []string{missing, good}, "ananke diff: base: read report " + missing + ": "},
		{"foreign head", []string{good, foreign}, `ananke diff: head: read report ` + foreign + `: summary.json has schema "ananke.report/v9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "", nil, append([]string{"diff"}, tc.args...)...)
			if r.code != ExitInvalid || !strings.Contains(r.errOut, tc.want) || r.out != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want 3 and %q", r.code, r.errOut, r.out, tc.want)
			}
		})
	}
	if r := run(t, "", nil, "diff", "-h"); r.code != ExitPass || !strings.Contains(r.out, "Usage: ananke diff [flags] BASE_DIR HEAD_DIR") {
		t.Errorf("diff -h: exit %d %q", r.code, r.out)
	}
}

// TestDiffStatuses: the exit code follows --fail-on-new alone, not the
// head's status.
func TestDiffStatuses(t *testing.T) {
	dirs := t.TempDir()
	write := func(name string, r *report.Report) string {
		t.Helper()
		p := filepath.Join(dirs, name)
		if err := reportdir.Write(p, r); err != nil {
			t.Fatal(err)
		}
		return p
	}
	passing := write("passing", reporttest.Pick(false, reporttest.Passing))
	failing := write("failing", reporttest.Pick(false, reporttest.Passing, reporttest.Failing))
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{passing, failing}, ExitPass},
		{[]string{"--fail-on-new", passing, failing}, ExitFail},
		{[]string{"--fail-on-new", failing, passing}, ExitPass},
		{[]string{"--fail-on-new", failing, failing}, ExitPass},
	} {
		if r := run(t, "", nil, append([]string{"diff"}, tc.args...)...); r.code != tc.code {
			t.Errorf("diff %q: exit %d; want %d\n%s%s", tc.args, r.code, tc.code, r.out, r.errOut)
		}
	}
}
