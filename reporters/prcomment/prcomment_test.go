package prcomment_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/prcomment"
)

func TestBody(t *testing.T) {
	body := prcomment.Body(reporttest.Report(), prcomment.Options{CheckName: "agent tests", LinkBase: "https://github.com/o/r/blob/abc/",
		Artifact: "the `ananke-report` artifact", Footer: "Full report: the `ananke-report` artifact · [workflow run](https://github.com/o/r/actions/runs/1)"})
	golden.Assert(t, "testdata/comment.golden.md", body)
	if !strings.HasPrefix(body, "<!-- ananke:report:agent tests -->\n") {
		t.Error("the marker does not come first")
	}
	if len(body) > 65000 || strings.Contains(body, reporttest.Secret) {
		t.Errorf("%d bytes; secret present %v", len(body), strings.Contains(body, reporttest.Secret))
	}
}
