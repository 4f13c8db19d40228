package format

import (
	"slices"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

func TestHooksFailed(t *testing.T) {
	h := func(phase string, i int) report.Hook {
		return report.Hook{Phase: phase, Index: i, Status: status.Error}
	}
	for _, tc := range []struct {
		hooks []report.Hook
		want  string
	}{
		{nil, ""},
		{[]report.Hook{h("after_all", 0)}, "after_all[0] failed"},
		{[]report.Hook{h("before_all", 0), h("after_all", 1)}, "before_all[0] and after_all[1] failed"},
		{[]report.Hook{h("after_all", 0), h("after_all", 1), h("after_all", 2)}, "after_all[0], after_all[1] and 1 more hook failed"},
		{[]report.Hook{h("after_all", 0), h("after_all", 1), h("after_all", 2), h("after_all", 3)}, "after_all[0], after_all[1] and 2 more hooks failed"},
	} {
		if got := HooksFailed(tc.hooks); got != tc.want {
			t.Errorf("HooksFailed(%d hooks) = %q; want %q", len(tc.hooks), got, tc.want)
		}
	}
}

func TestAttachments(t *testing.T) {
	for _, tc := range []struct {
		as   []trace.Attachment
		want string
	}{
		{nil, ""},
		{[]trace.Attachment{{Name: "receipt.png", MIME: "image/png", Bytes: 2150}}, "receipt.png (image/png, 2.1 KiB)"},
		{[]trace.Attachment{{Name: "a.pdf", MIME: "application/pdf", Bytes: 3 << 20}, {Name: "n.txt", Bytes: 312}},
			"a.pdf (application/pdf, 3.0 MiB), n.txt (unknown type, 312 B)"},
	} {
		if got := Attachments(tc.as); got != tc.want {
			t.Errorf("Attachments(%v) = %q; want %q", tc.as, got, tc.want)
		}
	}
}

// TestErrored: the checks that could not be made, but the one the test's
// reason tells of.
func TestErrored(t *testing.T) {
	at := report.Location{File: "t.ananke.jsonl", Line: 3, Col: 40}
	after := report.Assertion{ID: "test.after[0]", Status: status.Error, Source: at, Message: "after[0]: exited 2"}
	judge := report.Assertion{ID: "test.judge", Status: status.Error, Source: report.Location{File: "t.ananke.jsonl", Line: 3, Col: 90}, Message: "no verdict"}
	failed := report.Assertion{ID: "turn[0].text.must_match[0]", Status: status.Fail}
	for _, tc := range []struct {
		name string
		t    report.Test
		want []string
	}{
		{"failed test", report.Test{Status: status.Fail, Assertions: []report.Assertion{failed, after, judge}}, []string{"test.after[0]", "test.judge"}},
		{"reason names one", report.Test{Status: status.Error, Reason: "after[0]: exited 2", At: &at, Assertions: []report.Assertion{after, judge}}, []string{"test.judge"}},
		{"reason with the id", report.Test{Status: status.Error, Reason: "test.after[0]: after[0]: exited 2", At: &at, Assertions: []report.Assertion{after}}, nil},
		{"same message elsewhere", report.Test{Status: status.Error, Reason: "after[0]: exited 2", Assertions: []report.Assertion{after}}, []string{"test.after[0]"}},
	} {
		var got []string
		for _, a := range Errored(&tc.t) {
			got = append(got, a.ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Errored = %q; want %q", tc.name, got, tc.want)
		}
	}
}

func TestTestLocation(t *testing.T) {
	for _, tc := range []struct {
		line, want int
	}{{0, 1}, {1, 1}, {7, 7}} {
		if got := TestLocation(&report.Test{File: "f", Line: tc.line}); got != (report.Location{File: "f", Line: tc.want}) {
			t.Errorf("TestLocation(line %d) = %v; want f:%d", tc.line, got, tc.want)
		}
	}
}
