package report_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
)

func TestRedactor(t *testing.T) {
	r := report.NewRedactor([]string{"s3cret", `quo"te`, "ab", "s3cret-longer"}, []*regexp.Regexp{regexp.MustCompile(`tok_[0-9]+`)})
	for in, want := range map[string]string{
		"key s3cret-longer and s3cret":    "key *** and ***",
		`json {"k":"quo\"te"} raw quo"te`: `json {"k":"***"} raw ***`,
		"tok_123 stays masked":            "*** stays masked",
		"ab is too short to mask":         "ab is too short to mask",
		"":                                "",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q; want %q", in, got, want)
		}
	}
	// A pattern that eats a quote must not leave broken JSON behind.
	q := report.NewRedactor(nil, []*regexp.Regexp{regexp.MustCompile(`"secret":"[^"]*"`)})
	got := q.JSON(json.RawMessage(`{"secret":"x","ok":1}`))
	if !json.Valid(got) || strings.Contains(string(got), `"x"`) {
		t.Errorf("JSON = %s; want valid JSON without the value", got)
	}
}

// TestBuildMasksEverything: the secret planted in agent text, tool
// arguments, a trace event and a hook's stderr survives nowhere in the
// report, the traces included.
func TestBuildMasksEverything(t *testing.T) {
	rep := reporttest.Report()
	all, _ := json.Marshal(rep)
	for _, tt := range rep.Tests {
		b, _ := json.Marshal(tt.Trace)
		all = append(all, b...)
	}
	if strings.Contains(string(all), reporttest.Secret) {
		t.Fatalf("the secret survives in the report:\n%s", all)
	}
	if n := strings.Count(string(all), report.Mask); n < 6 {
		t.Errorf("%d masks; the secret appears at least 6 times in the fixture", n)
	}
}

func TestBuildTotalsAndShape(t *testing.T) {
	rep := reporttest.Report()
	want := report.Totals{Total: 4, Passed: 1, Failed: 1, Errored: 1, Skipped: 1, PassRate: 33.3}
	if rep.Totals != want {
		t.Errorf("totals = %+v; want %+v", rep.Totals, want)
	}
	if rep.Schema != "ananke.report/v1" || rep.DurationMs != 1700 || rep.Target.Endpoint != "https://agent.example.com/agui" {
		t.Errorf("header = %+v", rep)
	}
	ft := rep.Tests[0]
	if ft.Status != "fail" || len(ft.Failed()) != 2 || ft.Turns[1].ToolCalls[0].AtMs != 1300 || ft.Turns[1].ToolCalls[0].DurationMs != 150 {
		t.Errorf("failing test = %+v", ft)
	}
	if at := rep.Tests[2].At; at == nil || at.String() != "tests/refund.ananke.yaml:5:5" {
		t.Errorf("error location = %v", at)
	}
	js, _ := json.Marshal(rep.Tests[3])
	if strings.Contains(string(js), "null") {
		t.Errorf("a skipped test renders null lists: %s", js)
	}
}
