package schema_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ananke/action/schema"
	"github.com/ananke/action/schema/schematest"
)

// handWritten are the schemas written by hand, by file name.
var handWritten = map[string][]byte{
	"ananke.report.schema.json":           schema.Report,
	"ananke.normalized-trace.schema.json": schema.NormalizedTrace,
	"ananke.history.schema.json":          schema.History,
	"ananke.labels.schema.json":           schema.Labels,
	"ananke.calibration.schema.json":      schema.Calibration,
}

// TestCompiles: each schema written by hand compiles, under the $id of
// its file.
func TestCompiles(t *testing.T) {
	for file, doc := range handWritten {
		var head struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(doc, &head); err != nil || head.ID != schematest.Base+file {
			t.Errorf("%s: $id %q (%v); want %q", file, head.ID, err, schematest.Base+file)
		}
		schematest.Compile(t, doc, file)
	}
}

// TestNamedIsNotBlank: the text the labels and calibration schemas take
// as named ($defs.named) is what their readers take — at least one
// character strings.TrimSpace keeps — over every Unicode code point.
func TestNamedIsNotBlank(t *testing.T) {
	for file, doc := range map[string][]byte{"ananke.labels.schema.json": schema.Labels, "ananke.calibration.schema.json": schema.Calibration} {
		var s struct {
			Defs struct {
				Named struct{ Pattern string } `json:"named"`
			} `json:"$defs"`
		}
		if err := json.Unmarshal(doc, &s); err != nil || s.Defs.Named.Pattern == "" {
			t.Fatalf("%s: no $defs.named pattern (%v)", file, err)
		}
		re := regexp.MustCompile(s.Defs.Named.Pattern)
		for r := rune(0); r <= unicode.MaxRune; r++ {
			if !utf8.ValidRune(r) {
				continue
			}
			c := string(r)
			if blank := strings.TrimSpace(c) == ""; re.MatchString(c) == blank {
				t.Errorf("%s: U+%04X is blank to the reader %v, to the schema %v", file, r, blank, !blank)
			}
		}
	}
}
