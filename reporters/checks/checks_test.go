package checks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/checks"
)

func TestBuild(t *testing.T) {
	run := checks.Build(reporttest.Report(), checks.Options{Name: "ananke", HeadSHA: "abc123", DetailsURL: "https://github.com/o/r/actions/runs/1",
		LinkBase: "https://github.com/o/r/blob/abc123/", Artifact: "the `ananke-report` artifact", Footer: "Full report: the artifact", Annotations: true})
	b, _ := json.MarshalIndent(run, "", "  ")
	golden.Assert(t, "testdata/check.golden.json", string(b)+"\n")
	if strings.Contains(string(b), reporttest.Secret) {
		t.Error("the secret is in the check run")
	}
	for _, a := range run.Annotations {
		if strings.ContainsAny(a.Title+a.Message+a.RawDetails, "\x1b\x07") {
			t.Errorf("annotation %q holds a raw control character", a.Title)
		}
	}
	if run.Conclusion != "failure" || len(run.Annotations) != 4 {
		t.Errorf("conclusion %s, %d annotations; want failure and 4 (2 assertions, 1 error, 1 warning)", run.Conclusion, len(run.Annotations))
	}
	if run := checks.Build(reporttest.Report(), checks.Options{Annotations: false}); len(run.Annotations) != 0 {
		t.Error("annotations: false still annotates")
	}
}

func TestConclusionAndTitle(t *testing.T) {
	for _, tc := range []struct {
		t          report.Totals
		conclusion string
		title      string
	}{
		{report.Totals{Total: 3, Passed: 3}, "success", "3 of 3 tests passed"},
		{report.Totals{Total: 3, Passed: 1, Failed: 1, Errored: 1}, "failure", "1 failed, 1 errored of 3 tests"},
		{report.Totals{Total: 2, Passed: 1, Errored: 1}, "failure", "1 errored of 2 tests"},
		{report.Totals{Total: 2, Skipped: 2}, "skipped", "0 of 2 tests passed"},
		{report.Totals{}, "neutral", "0 of 0 tests passed"},
	} {
		if c, ti := checks.Conclusion(tc.t), checks.Title(tc.t); c != tc.conclusion || ti != tc.title {
			t.Errorf("%+v: %s %q; want %s %q", tc.t, c, ti, tc.conclusion, tc.title)
		}
	}
}

// TestAnnotationsStayInTheRepository: positions outside the repository
// cannot be annotated.
func TestAnnotationsStayInTheRepository(t *testing.T) {
	r := reporttest.Report()
	r.Tests[0].Assertions[1].Source.File = "../elsewhere/x.yaml"
	r.Tests[0].Assertions[2].Source.File = "/abs/x.yaml"
	for _, a := range checks.Annotations(r) {
		if strings.HasPrefix(a.Path, "..") || strings.HasPrefix(a.Path, "/") {
			t.Errorf("annotation outside the repository: %+v", a)
		}
	}
}
