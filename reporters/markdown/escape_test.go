package markdown_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// hostile is what an agent, a hook or a test author might write to act on
// GitHub through the comment: a mention, an issue reference, HTML, a link,
// a table pipe, a line break, a code-fence breaker, a closing tag and
// terminal escapes.
const hostile = "hi @octocat see #12 and GH-7 <img src=x onerror=alert(1)> [link](http://evil) ![i](https://evil/i.png) " +
	"www.evil.com a|b\nline two ``````\n</details></summary> ~~x~~ **y** $x$ &amp; \x1b[2J\x07 \u202egnp.exe\u0085 ***"

// hostileReport puts hostile text in every untrusted field the markdown
// shows, the attempts' reasons and failed assertions included.
func hostileReport() *report.Report {
	r := reporttest.Report()
	for i := range r.Tests {
		t := &r.Tests[i]
		t.Name = hostile
		t.File = "tests/@octocat #12|`x`.yaml"
		t.Reason = hostile
		t.Detail = hostile + "\n```\n</details>\n" + hostile
		for j := range t.Turns {
			t.Turns[j].User = hostile
		}
		for j := range t.Assertions {
			hostileAssertion(&t.Assertions[j], t.File)
		}
		for j := range t.Attempts {
			a := &t.Attempts[j]
			a.Reason = hostile + " (attempt)" // not the test's reason, so shown
			for k := range a.Failed {
				hostileAssertion(&a.Failed[k], t.File)
			}
		}
	}
	r.Tests[2].At.File = r.Tests[0].File
	return r
}

// hostileAssertion makes an assertion hostile; its id is the same hostile
// text in the test and in its attempts, so FirstFailure still finds it.
func hostileAssertion(a *report.Assertion, file string) {
	a.ID = hostile
	a.Message = "forbidden `" + hostile + "` in: " + hostile + " `unclosed"
	a.Expected, a.Observed = hostile, "`"+hostile+"`"
	a.Source.File = file
	for k := range a.Evidence {
		e := &a.Evidence[k]
		e.Note = hostile
		if e.Text != "" {
			e.Text = hostile
		}
		if e.Call != nil {
			c := *e.Call
			c.Name, c.Args, c.ID = hostile, hostile, hostile
			res := hostile
			c.Result = &res
			e.Call = &c
		}
	}
}

// ourTags are the only HTML the renderer writes itself.
var ourTags = regexp.MustCompile(`^<(/?details( open)?|/?summary|/?b|code/|!-- m --)>`)

func TestRenderEscapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts markdown.Options
	}{
		{"plain", markdown.Options{Marker: "<!-- m -->"}},
		{"linked", markdown.Options{LinkBase: "https://github.com/o/r/blob/abc/"}},
		{"closed blocks", markdown.Options{Title: hostile}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := hostileReport()
			if tc.name == "closed blocks" {
				r.Tests = append(r.Tests, r.Tests[0], r.Tests[0], r.Tests[0]) // more than 3 failing: closed blocks
			}
			out := markdown.Render(r, tc.opts)
			if tc.name == "plain" {
				golden.Assert(t, "testdata/hostile.golden.md", out)
			}
			checkStructure(t, out)
			checkInert(t, out, tc.opts.LinkBase)
			rows := tableRows(out)
			if len(rows) != len(r.Tests) {
				t.Errorf("%d table rows; want %d", len(rows), len(r.Tests))
			}
			for _, row := range rows {
				if n, want := cells(row), wantCells(r); n != want {
					t.Errorf("row has %d cells; want %d: %s", n, want, row)
				}
			}
		})
	}
}

// checkInert fails when out has a raw control character anywhere, or,
// outside code, a mention, an issue reference, an autolink, a link not to
// linkBase, or HTML other than the renderer's own.
func checkInert(t *testing.T, out, linkBase string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e) {
			t.Errorf("raw control character %U in the output", r)
		}
	}
	live := outsideCode(out)
	if linkBase != "" {
		live = regexp.MustCompile(`\]\(`+regexp.QuoteMeta(linkBase)+`[^()\s]*\)`).ReplaceAllString(live, "](ours)")
	}
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`@[A-Za-z0-9]`),        // a mention or e-mail address
		regexp.MustCompile(`(?:^|[^&])#[0-9]`),    // an issue reference, not an entity
		regexp.MustCompile(`(?i)gh-[0-9]`),        // an issue reference
		regexp.MustCompile(`(?i)www\.|[a-z]+://`), // an autolink
		regexp.MustCompile(`\]\([^o]`),            // a link, other than ours
	} {
		if m := bad.FindString(live); m != "" {
			t.Errorf("live %q outside code:\n%s", m, live)
		}
	}
	for i := strings.IndexByte(live, '<'); i >= 0; i = next(live, i) {
		if !ourTags.MatchString(live[i:]) {
			t.Errorf("raw HTML outside code: %q", truncate(live[i:], 40))
		}
	}
}

func next(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '<')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
