package warningsng_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/codequality"
	"github.com/ananke/action/reporters/internal/issues/issuestest"
	"github.com/ananke/action/reporters/warningsng"
)

func render(t *testing.T, r *report.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := warningsng.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// parsed is an issue as the analysis model's JSON parser reads it
// (edu.hm.hafner.analysis.parser.JsonParser through JsonBaseParser): the
// keys it reads, and no other, so that decoding with unknown fields
// disallowed proves the file holds nothing the plugin would drop.
type parsed struct {
	FileName             string `json:"fileName"`
	LineStart            int    `json:"lineStart"`
	LineEnd              int    `json:"lineEnd"`
	ColumnStart          int    `json:"columnStart"`
	ColumnEnd            int    `json:"columnEnd"`
	Severity             string `json:"severity"`
	Category             string `json:"category"`
	Type                 string `json:"type"`
	Message              string `json:"message"`
	Description          string `json:"description"`
	Fingerprint          string `json:"fingerprint"`
	PackageName          string `json:"packageName"`
	ModuleName           string `json:"moduleName"`
	AdditionalProperties string `json:"additionalProperties"`
	ID                   string `json:"id"`
	LineRanges           []any  `json:"lineRanges"`
	Locations            []any  `json:"locations"`
}

// read decodes a file as the plugin would, checking what it needs: an
// object with "issues", each with a file, a line from 1 and one of the
// analysis model's four severities.
func read(t *testing.T, out []byte) []parsed {
	t.Helper()
	var f struct {
		Issues []parsed `json:"issues"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("not the native format: %v\n%s", err, out)
	}
	if f.Issues == nil {
		t.Fatalf("no issues array:\n%s", out)
	}
	for i, is := range f.Issues {
		if is.FileName == "" || is.LineStart < 1 || is.LineEnd != is.LineStart || is.Fingerprint == "" || is.Message == "" ||
			!slices.Contains([]string{"ERROR", "HIGH", "NORMAL", "LOW"}, is.Severity) {
			t.Errorf("issue %d is incomplete: %+v", i, is)
		}
	}
	return f.Issues
}

// TestGolden: each fixture's issues, as written, read back as the plugin
// reads them; no secret.
func TestGolden(t *testing.T) {
	for name, r := range issuestest.Fixtures() {
		t.Run(name, func(t *testing.T) {
			out := render(t, r)
			golden.Assert(t, "testdata/"+name+".golden.json", string(out))
			read(t, out)
			issuestest.NoSecret(t, out)
		})
	}
}

// TestSameAsCodeQuality: the two files list the same problems, in the
// same order, at the same lines, with the same fingerprints and texts;
// the severities map one to one.
func TestSameAsCodeQuality(t *testing.T) {
	sev := map[string]string{"critical": "ERROR", "major": "HIGH", "minor": "NORMAL", "info": "LOW"}
	for name, r := range issuestest.Fixtures() {
		t.Run(name, func(t *testing.T) {
			ng, cq := read(t, render(t, r)), codequality.Issues(r)
			if len(ng) != len(cq) {
				t.Fatalf("%d issues; Code Quality has %d", len(ng), len(cq))
			}
			for i := range ng {
				got := fmt.Sprintf("%s:%d %s %s %s %s", ng[i].FileName, ng[i].LineStart, ng[i].Severity, ng[i].Type, ng[i].Fingerprint, ng[i].Message)
				want := fmt.Sprintf("%s:%d %s %s %s %s", cq[i].Location.Path, cq[i].Location.Lines.Begin, sev[cq[i].Severity], cq[i].CheckName, cq[i].Fingerprint, cq[i].Description)
				if got != want {
					t.Errorf("issue %d:\n%s\nwant\n%s", i, got, want)
				}
			}
		})
	}
}

// TestEmpty: nothing wrong is an empty issues array, which the plugin
// reads as no issues.
func TestEmpty(t *testing.T) {
	if got := string(render(t, reporttest.Pick(false))); got != "{\n  \"issues\": []\n}\n" {
		t.Errorf("empty run = %q", got)
	}
}

// TestDescriptionEscaped: the description is HTML the plugin shows, so an
// agent's or a judge's text in it is escaped; the message is plain text
// (the plugin escapes it) and stays as it is.
func TestDescriptionEscaped(t *testing.T) {
	var tone *parsed
	issues := read(t, render(t, reporttest.JudgesReport()))
	for i := range issues {
		if strings.HasPrefix(issues[i].Message, "replies kindly: warning:") {
			tone = &issues[i]
		}
	}
	if tone == nil {
		t.Fatalf("no issue for the judge's warning in %+v", issues)
	}
	if !strings.Contains(tone.Message, "</script><script>") {
		t.Errorf("message = %q; want the judge's text as it is", tone.Message)
	}
	if strings.Contains(tone.Description, "<script>") || !strings.Contains(tone.Description, "&lt;/script&gt;&lt;script&gt;") ||
		!strings.HasPrefix(tone.Description, "<pre>") || !strings.HasSuffix(tone.Description, "</pre>") {
		t.Errorf("description = %q; want the details escaped in a <pre>", tone.Description)
	}
}
