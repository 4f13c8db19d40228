package console_test

import (
	"bytes"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/console"
)

// TestWriteVariants: after the summary, each variant with its overrides
// and totals (the broken one's reason), the matrix with the significantly
// worse cell marked and the difference under its row, then a verdict per
// pair.
func TestWriteVariants(t *testing.T) {
	for _, c := range []struct {
		golden string
		color  bool
	}{{"testdata/variants.golden.txt", false}, {"testdata/variants-color.golden.txt", true}} {
		var b bytes.Buffer
		if err := console.Write(&b, reporttest.VariantsReport(), console.Options{Color: c.color}); err != nil {
			t.Fatal(err)
		}
		golden.Assert(t, c.golden, b.String())
	}
}
