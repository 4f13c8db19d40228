package tracefile_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/tracefile"
)

func TestGoldens(t *testing.T) {
	r := reporttest.Report()
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"trace.golden.json", func(b *bytes.Buffer) error { return tracefile.Write(b, &r.Tests[0], &r.Tests[0].Attempts[0]) }},
		{"trace-empty.golden.json", func(b *bytes.Buffer) error { return tracefile.Write(b, &r.Tests[3], nil) }},
		{"trace-attempt.golden.json", func(b *bytes.Buffer) error { return tracefile.Write(b, &r.Tests[5], &r.Tests[5].Attempts[1]) }},
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
