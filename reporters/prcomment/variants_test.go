package prcomment_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/prcomment"
)

// TestBodyVariants: the comment of a run with variants has the pair
// verdicts, then the matrix.
func TestBodyVariants(t *testing.T) {
	body := prcomment.Body(reporttest.VariantsReport(), prcomment.Options{CheckName: "agent tests", Artifact: "the `ananke-report` artifact"})
	golden.Assert(t, "testdata/comment-variants.golden.md", body)
}

// TestBodyVariantsFolded: a comparison too long for a comment keeps the
// verdicts and as many rows of the matrix as fit within GitHub's limit,
// and folds the others into a note that counts them.
func TestBodyVariantsFolded(t *testing.T) {
	r := reporttest.VariantsReport()
	const extra = 1000
	for i := range extra {
		row := r.Variants.Rows[i%len(r.Variants.Rows)]
		row.Name = fmt.Sprintf("%s %04d", row.Name, i)
		r.Variants.Rows = append(r.Variants.Rows, row)
	}
	body := prcomment.Body(r, prcomment.Options{CheckName: "agent tests", Artifact: "the `ananke-report` artifact"})
	if len(body) > 65000 {
		t.Errorf("%d bytes, over the comment's limit", len(body))
	}
	if !strings.Contains(body, "- careful passes 1 fewer test than baseline") {
		t.Error("the verdict is missing")
	}
	m := regexp.MustCompile("_… ([0-9]+) tests more in the `ananke-report` artifact._").FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no note folding the matrix's rows in\n%s", body[len(body)-2000:])
	}
	folded, _ := strconv.Atoi(m[1])
	// The matrix's rows start with the test's name, the test table's with
	// its status.
	shown := strings.Count(body, "\n| greets the user") + strings.Count(body, "\n| refund an order") + strings.Count(body, "\n| search finds shoes")
	if shown == 0 || folded == 0 {
		t.Errorf("%d rows shown, %d folded; want both", shown, folded)
	}
	if shown+folded != len(r.Variants.Rows) {
		t.Errorf("%d rows shown + %d folded, want %d", shown, folded, len(r.Variants.Rows))
	}
}
