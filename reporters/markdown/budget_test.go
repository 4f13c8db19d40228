package markdown_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// GitHub's limits (github-ci.md §4–5): a PR comment stays under 65536
// characters, the job summary under 1 MiB.
const (
	commentBudget = 65000
	summaryBudget = 1 << 20
)

var noteRE = regexp.MustCompile(`(?m)^_… (\d+) more tests? not shown(?: \((\d+) failed\))? — see the ` + "`ananke-report`" + ` artifact\._$`)

func TestRenderBudget(t *testing.T) {
	r := many(500, 50)
	for _, tc := range []struct {
		name     string
		budget   int
		trimmed  bool
		minShown int
	}{
		{"comment", commentBudget, true, 30},
		{"summary", summaryBudget, false, 550},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := markdown.Options{Budget: tc.budget, Marker: "<!-- ananke:report:ananke -->", Artifact: "the `ananke-report` artifact",
				LinkBase: "https://github.com/o/r/blob/0123abc/"}
			out := markdown.Render(r, opts)
			if len(out) > tc.budget {
				t.Fatalf("len(out) = %d; want ≤ %d", len(out), tc.budget)
			}
			if !strings.HasPrefix(out, opts.Marker+"\n### ✗ Ananke: 500 failed of 550 tests\n") {
				t.Errorf("out starts %q; want the marker, then the heading", truncate(out, 120))
			}
			checkStructure(t, out)
			rows := tableRows(out)
			if len(rows) < tc.minShown {
				t.Errorf("%d rows shown; want at least %d", len(rows), tc.minShown)
			}
			checkOrder(t, rows)
			// many's passing tests have a failing warning (and a warning
			// judge not made): each row shown, failed or warned, comes with
			// its block.
			warned := 0
			for _, row := range rows {
				if strings.HasPrefix(row, "| ✓ |") && strings.Contains(row, " (⚠ 1 check not made, 1 warning) |") {
					warned++
				}
			}
			if got := strings.Count(out, "<details>") + strings.Count(out, "<details open>"); got != min(len(rows), 500)+warned {
				t.Errorf("%d <details> blocks for %d rows (%d with warnings); want one per failed or warned test shown", got, len(rows), warned)
			}
			m := noteRE.FindStringSubmatch(out)
			if (m != nil) != tc.trimmed {
				t.Fatalf("trimming note present = %v; want %v\n%s", m != nil, tc.trimmed, out[max(0, len(out)-300):])
			}
			if m != nil {
				var hidden, hiddenFailed int
				fmt.Sscan(m[1], &hidden)
				fmt.Sscan(m[2], &hiddenFailed)
				if hidden+len(rows) != 550 || hiddenFailed+len(rows) != 500 {
					t.Errorf("note says %d more (%d failed) with %d rows shown; want 550 and 500 in all", hidden, hiddenFailed, len(rows))
				}
				if !strings.HasSuffix(out, m[0]+"\n") {
					t.Error("the note is not the last line")
				}
			}
		})
	}
}

// checkOrder fails when a passing or skipped test's row comes before a
// failed or errored one.
func checkOrder(t *testing.T, rows []string) {
	t.Helper()
	seenOther := false
	for i, row := range rows {
		bad := strings.HasPrefix(row, "| ✗ |") || strings.HasPrefix(row, "| ! |")
		if bad && seenOther {
			t.Fatalf("row %d %q comes after a passing test", i, row)
		}
		seenOther = seenOther || !bad
	}
}

// TestRenderTinyBudgets renders with budgets from nothing to barely enough:
// never over budget, never a broken rune, and balanced blocks whenever the
// heading fits.
func TestRenderTinyBudgets(t *testing.T) {
	reports := map[string]*report.Report{"fixture": reporttest.Report(), "many": many(500, 5), "empty": many(0, 0)}
	for name, r := range reports {
		full := len(markdown.Render(r, markdown.Options{Marker: "<!-- m -->"}))
		for _, budget := range []int{1, 2, 3, 10, 50, 100, 200, 300, 400, 500, 1000, 1400, 1462, 1500, 2000, 5000, full - 1, full, full + 1} {
			if budget <= 0 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", name, budget), func(t *testing.T) {
				out := markdown.Render(r, markdown.Options{Budget: budget, Marker: "<!-- m -->"})
				if len(out) > budget {
					t.Fatalf("len(out) = %d; want ≤ %d", len(out), budget)
				}
				if !utf8.ValidString(out) {
					t.Errorf("invalid UTF-8: %q", out)
				}
				if strings.Contains(out, "|--:|\n| ") { // the totals row is whole
					checkStructure(t, out)
				}
				if budget >= full && strings.Contains(out, "not shown") {
					t.Errorf("trimmed with budget %d ≥ full size %d", budget, full)
				}
			})
		}
	}
}

// longestNote is the fixture's longest trimming note: every test left out.
const longestNote = "_… 6 more tests not shown (2 failed, 1 errored) — see the report directory._\n"

func TestRenderTrimsWholeTests(t *testing.T) {
	fix := reporttest.Report()
	full := markdown.Render(fix, markdown.Options{})
	// Every budget between the heading and the full output keeps whole
	// rows and whole blocks of the full output, never a test cut in half.
	for budget := 200; budget <= len(full); budget++ {
		out := markdown.Render(fix, markdown.Options{Budget: budget})
		checkStructure(t, out)
		rows := tableRows(out)
		// From where the heading, totals and the longest note fit, every
		// trimmed output says what it left out.
		roomy := budget >= strings.Index(full, "| | Test")+len(longestNote)
		if shown := len(rows); roomy && shown < len(fix.Tests) && !strings.Contains(out, fmt.Sprintf("_… %d more test", len(fix.Tests)-shown)) {
			t.Fatalf("budget %d: %d of %d tests shown and no note saying so:\n%s", budget, shown, len(fix.Tests), out)
		}
		for _, row := range rows {
			if !strings.Contains(full, row+"\n") {
				t.Fatalf("budget %d: row not in the full output: %s", budget, row)
			}
		}
		for _, block := range strings.SplitAfter(out, "</details>\n")[:strings.Count(out, "</details>")] {
			block = block[strings.Index(block, "<details"):]
			if !strings.Contains(full, block) {
				t.Fatalf("budget %d: block not in the full output:\n%s", budget, block)
			}
		}
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
