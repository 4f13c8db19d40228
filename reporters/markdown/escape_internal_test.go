package markdown

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

func TestEscapers(t *testing.T) {
	const wj = wordJoiner
	for _, tc := range []struct {
		name string
		f    func(string) string
		in   string
		want string
	}{
		{"text plain", text, "checkout declines the card", "checkout declines the card"},
		{"text snake_case kept", text, "result_match a_b", "result_match a_b"},
		{"text emphasis", text, "_x_ *y* __z__", `\_x\_ \*y\* \_\_z\_\_`},
		{"text html", text, "<img src=x onerror=alert(1)> &amp;", "&lt;img src=x onerror=alert(1)&gt; &amp;amp;"},
		{"text link", text, "[a](http://evil)", `\[a\]\(http:` + wj + `//evil)`},
		{"text image", text, "![i](x)", `!\[i\]\(x)`},
		{"text table, code, strike, math", text, "a|b `c` ~d~ $e$ \\", `a\|b \` + "`c\\` " + `\~d\~ \$e\$ \\`},
		{"text mention", text, "@octocat", "@" + wj + "octocat"},
		{"text email", text, "a@b.io", "a@" + wj + "b.io"},
		{"text issue", text, "#12 GH-7 gh-8 ugh-x", "#" + wj + "12 GH-" + wj + "7 gh-" + wj + "8 ugh-x"},
		{"text www", text, "www.evil.com WWW.x", "www" + wj + ".evil.com WWW" + wj + ".x"},
		{"text newline", text, "a\nb\r\nc", "a⏎b⏎c"},
		{"text controls", text, "\x1b[2J\x07\u0085\u202e", `\\x1b\[2J\\x07\\x85\\u202e`},
		{"text invalid utf-8", text, "a\xffb", "a\uFFFDb"},
		{"text secret", text, "key ***", `key \*\*\*`},
		{"html", html, `<b>"x" [l](u) a|b_ @u #1</b>`, "&lt;b&gt;&#34;x&#34; &#91;l&#93;(u) a&#124;b&#95; @" + wj + "u #" + wj + "1&lt;/b&gt;"},
		{"code", func(s string) string { return code(s, false) }, "turn[1].id", "`turn[1].id`"},
		{"code backticks", func(s string) string { return code(s, false) }, "a``b", "```a``b```"},
		{"code edge backtick", func(s string) string { return code(s, false) }, "`x", "`` `x ``"},
		{"code spaces kept", func(s string) string { return code(s, false) }, " x ", "`  x  `"},
		{"code cell pipe", func(s string) string { return code(s, true) }, "a|b", "`a\\|b`"},
		{"code pipe outside cell", func(s string) string { return code(s, false) }, "a|b", "`a|b`"},
		{"code empty", func(s string) string { return code(s, false) }, "", ""},
		{"code newline", func(s string) string { return code(s, false) }, "a\nb", "`a⏎b`"},
		{"inline", inline, "call to `charge_card` in turn[1]", "call to `charge_card` in turn\\[1\\]"},
		{"inline unclosed", inline, "a `b` c `d", "a `b` c \\`d"},
		{"inline empty span", inline, "a `` b", "a \\`\\` b"},
		{"fence", fence, "a\nb", "```text\na\nb\n```\n"},
		{"fence breaker", fence, "x\n``````\ny", "```````text\nx\n``````\ny\n```````\n"},
		{"fence controls", fence, "a\x1b[1m\r\nb\rc", "```text\na\\x1b[1m\nb\\x0dc\n```\n"},
		{"short", func(s string) string { return format.Short(s, 4) }, "héllo", "hél…"},
		{"truncate rune", func(s string) string { return truncate(s, 2) }, "aé", "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f(tc.in); got != tc.want {
				t.Errorf("%s(%q) = %q; want %q", tc.name, tc.in, got, tc.want)
			}
		})
	}
}

func TestHref(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		want string
	}{
		{"tests/a.ananke.yaml", 14, "B/tests/a.ananke.yaml#L14"},
		{"tests/my test (1).yaml", 1, "B/tests/my%20test%20%281%29.yaml#L1"},
		{"tests/é|`.yaml", 2, "B/tests/%C3%A9%7C%60.yaml#L2"},
	} {
		if got := href("B/", tc.file, tc.line); got != tc.want {
			t.Errorf("href(%q, %d) = %q; want %q", tc.file, tc.line, got, tc.want)
		}
	}
}

func TestHeading(t *testing.T) {
	for _, tc := range []struct {
		status            status.Status
		p, f, e, s, flaky int
		want              string
	}{
		{status.Fail, 1, 1, 1, 1, 0, "### ✗ T: 1 failed, 1 errored of 4 tests\n\n"},
		{status.Pass, 6, 0, 0, 0, 0, "### ✓ T: all 6 tests passed\n\n"},
		{status.Pass, 1, 0, 0, 0, 0, "### ✓ T: 1 test passed\n\n"},
		{status.Pass, 3, 0, 0, 1, 0, "### ✓ T: 3 of 4 tests passed, 1 skipped\n\n"},
		{status.Error, 1, 0, 2, 0, 0, "### ! T: 2 errored of 3 tests\n\n"},
		{status.Pass, 0, 0, 0, 2, 0, "### - T: 2 tests skipped\n\n"},
		{status.Pass, 0, 0, 0, 0, 0, "### - T: no tests ran\n\n"},
		// Flaky tests are counted wherever the verdict is given.
		{status.Pass, 6, 0, 0, 0, 2, "### ✓ T: all 6 tests passed, 2 flaky\n\n"},
		{status.Pass, 5, 0, 0, 1, 1, "### ✓ T: 5 of 6 tests passed, 1 skipped, 1 flaky\n\n"},
		{status.Fail, 2, 2, 1, 1, 2, "### ✗ T: 2 failed, 1 errored of 6 tests, 2 flaky\n\n"},
		{status.Error, 2, 0, 1, 0, 1, "### ! T: 1 errored of 3 tests, 1 flaky\n\n"},
		// Under fail-on-flaky the status alone says the run failed.
		{status.Fail, 6, 0, 0, 0, 2, "### ✗ T: 2 flaky tests failed the run (fail-on-flaky); all 6 tests passed\n\n"},
		{status.Fail, 1, 0, 0, 0, 1, "### ✗ T: 1 flaky test failed the run (fail-on-flaky); 1 test passed\n\n"},
		{status.Fail, 2, 0, 1, 0, 1, "### ✗ T: 1 flaky test failed the run (fail-on-flaky); 1 errored of 3 tests\n\n"},
		// A report without a status never reads as a pass.
		{"", 1, 1, 0, 0, 0, "### ✗ T: 1 failed of 2 tests\n\n"},
		{"", 1, 0, 1, 0, 0, "### ! T: 1 errored of 2 tests\n\n"},
	} {
		r := &report.Report{Status: tc.status, Totals: totalsOf(tc.p, tc.f, tc.e, tc.s)}
		r.Totals.Flaky = tc.flaky
		if got := heading(r, "T"); got != tc.want {
			t.Errorf("heading(%s, %+v) = %q; want %q", r.Status, r.Totals, got, tc.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for ms, want := range map[int64]string{0: "0ms", 420: "420ms", 1700: "1.7s", 125_000: "2m5s"} {
		if got := format.Duration(ms); got != want {
			t.Errorf("format.Duration(%d) = %q; want %q", ms, got, want)
		}
	}
}
