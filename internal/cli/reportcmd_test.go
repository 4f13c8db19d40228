package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

// writeReportDir writes the fixture report's directory at dir/name.
func writeReportDir(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	if err := reportdir.Write(out, reporttest.Report()); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReportFormats: `ananke report --format F` prints the bytes of the
// directory's file of that format (json: summary.json; markdown: what
// --summary writes), from ananke-report by default; with -o it writes
// them to the file and says so. Exit 0 though the run failed.
func TestReportFormats(t *testing.T) {
	dir := t.TempDir()
	rd := writeReportDir(t, dir, "ananke-report")
	read, err := reportdir.Read(rd)
	if err != nil {
		t.Fatal(err)
	}
	file := func(name string) string {
		b, err := os.ReadFile(filepath.Join(rd, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct{ format, want string }{
		{"codequality", file(reportdir.CodeQualityFile)},
		{"warnings-ng", file(reportdir.WarningsNGFile)},
		{"junit", file(reportdir.JUnitFile)},
		{"json", file(reportdir.SummaryFile)},
		{"markdown", summaryMarkdown(read, "ananke-report")},
	} {
		t.Run(tc.format, func(t *testing.T) {
			r := run(t, dir, nil, "report", "--format", tc.format)
			if r.code != ExitPass || r.errOut != "" || r.out != tc.want {
				t.Errorf("exit %d, stderr %q; stdout differs from the file: %v\n%.300s", r.code, r.errOut, r.out != tc.want, r.out)
			}
			out := filepath.Join(dir, tc.format+".out")
			r = run(t, dir, nil, "report", "-o", out, "--format="+tc.format, "ananke-report")
			got, err := os.ReadFile(out)
			if r.code != ExitPass || string(got) != tc.want || r.out != fmt.Sprintf("Wrote %s (%s) from ananke-report\n", out, tc.format) {
				t.Errorf("-o: exit %d, stdout %q, stderr %q; file (%v) differs: %v", r.code, r.out, r.errOut, err, string(got) != tc.want)
			}
			if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o644 {
				t.Errorf("-o file: %v %v", info, err)
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %q", left)
	}
}

// TestReportRefuses: what `ananke report` refuses (exit 3) and what it
// cannot write (exit 2), each with a message saying why.
func TestReportRefuses(t *testing.T) {
	dir := t.TempDir()
	writeReportDir(t, dir, "r")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no format", []string{"report", "r"}, ExitInvalid, "ananke report: name a format with --format: codequality, warnings-ng, junit, markdown, json\n"},
		{"unknown format", []string{"report", "--format", "sarif", "r"}, ExitInvalid, "ananke report: --format \"sarif\": want codequality, warnings-ng, junit, markdown, json\n"},
		{"two directories", []string{"report", "--format", "json", "r", "r"}, ExitInvalid, "ananke report: name one report directory\n"},
		{"no report there", []string{"report", "--format", "json"}, ExitInvalid, "ananke report: read report ananke-report: open "},
		{"unwritable output", []string{"report", "--format", "json", "-o", filepath.Join(dir, "missing", "x.json"), "r"}, ExitError, "ananke report: write " + filepath.Join(dir, "missing", "x.json") + ": open "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, dir, nil, tc.args...)
			if r.code != tc.code || !strings.HasPrefix(r.errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.errOut, tc.code, tc.want)
			}
		})
	}
}

// TestCodeQualityFailingExample: a run of the failing example writes a
// Code Quality file valid against the schema written from GitLab's
// documentation, with one critical issue per failing assertion at the
// assertion's file and line (summary.json's source) and nothing else;
// a second run gives every assertion the same fingerprint, and no two
// assertions share one.
func TestCodeQualityFailingExample(t *testing.T) {
	dir := copySuite(t, "failing")
	var runs [2]map[string]string // fingerprint → file:line test/assertion
	for i := range runs {
		out := filepath.Join(dir, fmt.Sprintf("out%d", i))
		if r := runWall(t, dir, nil, "run", "--report-dir", out); r.code != ExitFail {
			t.Fatalf("run %d: exit %d\n%s%s", i, r.code, r.out, r.errOut)
		}
		raw, err := os.ReadFile(filepath.Join(out, reportdir.CodeQualityFile))
		if err != nil {
			t.Fatal(err)
		}
		validateCodeQuality(t, raw)
		var issues []struct {
			CheckName                          string `json:"check_name"`
			Description, Fingerprint, Severity string
			Location                           struct {
				Path  string
				Lines struct{ Begin int }
			}
		}
		if err := json.Unmarshal(raw, &issues); err != nil {
			t.Fatal(err)
		}
		var summary struct {
			Tests []struct {
				ID, Name   string
				Assertions []struct {
					ID, Kind, Status, Message string
					Source                    struct {
						File string
						Line int
					}
				}
			}
		}
		sraw, _ := os.ReadFile(filepath.Join(out, reportdir.SummaryFile))
		if err := json.Unmarshal(sraw, &summary); err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, tt := range summary.Tests {
			for _, a := range tt.Assertions {
				if a.Status == "fail" {
					want = append(want, fmt.Sprintf("%s:%d critical ananke/%s %s: %s", a.Source.File, a.Source.Line, a.Kind, tt.Name, a.Message))
				}
			}
		}
		runs[i] = map[string]string{}
		for _, is := range issues {
			got = append(got, fmt.Sprintf("%s:%d %s %s %s", is.Location.Path, is.Location.Lines.Begin, is.Severity, is.CheckName, is.Description))
			if other, ok := runs[i][is.Fingerprint]; ok {
				t.Errorf("run %d: %q and %q share fingerprint %s", i, other, is.Description, is.Fingerprint)
			}
			runs[i][is.Fingerprint] = fmt.Sprintf("%s:%d %s", is.Location.Path, is.Location.Lines.Begin, is.CheckName)
		}
		slices.Sort(want)
		slices.Sort(got)
		if len(want) < 6 || !slices.Equal(got, want) {
			t.Errorf("run %d: issues\n%s\nwant one per failing assertion\n%s", i, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for fp, at := range runs[0] {
		if runs[1][fp] != at {
			t.Errorf("fingerprint %s is %s in the first run, %q in the second", fp, at, runs[1][fp])
		}
	}
	if len(runs[0]) != len(runs[1]) {
		t.Errorf("%d issues, then %d", len(runs[0]), len(runs[1]))
	}
}

// validateCodeQuality checks a Code Quality report against the schema in
// reporters/codequality/testdata.
func validateCodeQuality(t *testing.T, raw []byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(), "reporters", "codequality", "testdata", "codequality.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("codequality.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("codequality.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("invalid Code Quality report: %v\n%s", err, raw)
	}
}
