package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

func TestGoldens(t *testing.T) {
	r := reporttest.Report()
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"summary.golden.json", func(b *bytes.Buffer) error { return jsonreport.WriteSummary(b, r) }},
		{"result.golden.json", func(b *bytes.Buffer) error { return jsonreport.WriteResult(b, &r.Tests[0]) }},
		{"result-flaky.golden.json", func(b *bytes.Buffer) error { return jsonreport.WriteResult(b, &r.Tests[4]) }},
		// A passing test with a failing warning: status pass, the
		// assertion's status warn, no failure categories.
		{"result-warned.golden.json", func(b *bytes.Buffer) error { return jsonreport.WriteResult(b, &r.Tests[1]) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, "testdata/"+tc.file, b.String())
			if strings.Contains(b.String(), reporttest.Secret) {
				t.Error("the secret is in the output")
			}
			if strings.Contains(b.String(), "null") {
				t.Errorf("null in the output; lists must be []")
			}
		})
	}
}
