package html_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/html"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// fixture is reporttest's report (a passing test with a warning, a failing,
// an erroring and a skipped test, a flaky one that passes and one that
// fails, a planted secret) with suitetest's suite hooks, the after_all one
// failed with the other secret in its output.
func fixture() *report.Report {
	out := reporttest.Outcome()
	out.Hooks = suitetest.Hooks()
	out.Secrets = append(out.Secrets, suitetest.Secret)
	return report.Build(out, report.Meta{Version: "v1.2.3", Config: reporttest.Config(), Parallel: 2})
}

func render(t testing.TB, r *report.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := html.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const dataOpen = `<script type="application/json" id="data">` + "\n"

// data returns the JSON the page embeds.
func data(t testing.TB, page string) string {
	t.Helper()
	_, rest, ok := strings.Cut(page, dataOpen)
	if !ok {
		t.Fatal("the page has no data element")
	}
	js, _, ok := strings.Cut(rest, "</script>")
	if !ok {
		t.Fatal("the data element is not closed")
	}
	return js
}

// pageData is the part of the page's data tests look into.
type pageData struct {
	Status string `json:"status"`
	Tests  []struct {
		ID         string `json:"id"`
		Name       string `json:"name"`
		Status     string `json:"status"`
		Assertions []struct {
			ID       string      `json:"id"`
			Status   string      `json:"status"`
			Refs     report.Refs `json:"event_refs"`
			Evidence []struct {
				Refs report.Refs `json:"event_refs"`
			} `json:"evidence"`
		} `json:"assertions"`
		Turns []struct {
			Text      string            `json:"text"`
			TextBytes int               `json:"text_bytes"`
			User      string            `json:"user"`
			UserBytes int               `json:"user_bytes"`
			Events    []json.RawMessage `json:"events"`
			Count     int               `json:"event_count"`
			LeftOut   []struct {
				From, To int64
				Count    int
			} `json:"left_out"`
			Calls []struct {
				Args      string `json:"args"`
				ArgsBytes int    `json:"args_bytes"`
			} `json:"calls"`
		} `json:"turns"`
	} `json:"tests"`
}

func decode(t testing.TB, page string) pageData {
	t.Helper()
	var p pageData
	if err := json.Unmarshal([]byte(data(t, page)), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// event is one [seq, ms, raw(, extra)] of the data.
type event struct {
	Seq   int64
	Raw   string
	Bytes int
}

func decodeEvent(t testing.TB, b json.RawMessage) event {
	t.Helper()
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil || len(parts) < 3 {
		t.Fatalf("event %s: %v", b, err)
	}
	var e event
	json.Unmarshal(parts[0], &e.Seq)
	json.Unmarshal(parts[2], &e.Raw)
	if len(parts) > 3 {
		var extra struct{ Bytes int }
		json.Unmarshal(parts[3], &extra)
		e.Bytes = extra.Bytes
	}
	return e
}

// indented is the page's data indented, for a golden file a person can
// review.
func indented(t testing.TB, page string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(data(t, page)), "", "  "); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWrite: the page's data for each fixture matches its golden file,
// and the page around it is the template with the style and script inline.
func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *report.Report
	}{
		{"fixture", fixture()},
		{"suite", suitetest.Report()},
		{"extras", extras()},
		{"history", historyReport()},
		{"backend", reporttest.BackendReport()},
		{"attacks", attacksReport()},
		{"variants", variantsReport()},
		{"judges", reporttest.JudgesReport()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := render(t, tc.r)
			golden.Assert(t, "testdata/"+tc.name+".golden.json", indented(t, page))
			if again := render(t, tc.r); again != page {
				t.Error("a second Write of the same report gave other bytes")
			}
			checkFrame(t, page)
		})
	}
}

// checkFrame checks the page around the data: the policy that forbids
// loading anything, the style and the script inline, nothing after.
func checkFrame(t *testing.T, page string) {
	t.Helper()
	for _, want := range []string{
		"<!DOCTYPE html>\n",
		`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
		"<style>\n" + html.StyleForTest() + "</style>",
		"<script>\n" + html.ScriptForTest() + "</script>\n</body>\n</html>\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %.80q", want)
		}
	}
	if !strings.HasSuffix(page, "</html>\n") {
		t.Error("the page does not end with </html>")
	}
	if n := strings.Count(page, "</script>"); n != 2 {
		t.Errorf("%d </script> in the page; want 2 (the data's and the script's)", n)
	}
}

// TestNoSecret: the secrets masked in the report — in agent text, tool
// arguments, raw events, a request body, a test's error and a suite hook's
// output — appear nowhere in the page; the mask does.
func TestNoSecret(t *testing.T) {
	page := render(t, fixture())
	for _, s := range []string{reporttest.Secret, suitetest.Secret} {
		if strings.Contains(page, s) {
			t.Errorf("the page holds the secret %q", s)
		}
	}
	if n := strings.Count(page, report.Mask); n < 6 {
		t.Errorf("the mask shows %d times; want it in text, arguments, events, errors and hooks", n)
	}
}

// svgNamespace is the name of SVG's namespace, which the script makes its
// sparklines in: a name, never loaded.
const svgNamespace = "'http://www.w3.org/2000/svg'"

// TestAssetsLoadNothing: the page's own files name no address to load (but
// SVG's namespace, once, as a name), and cannot end the element they sit
// in.
func TestAssetsLoadNothing(t *testing.T) {
	if n := strings.Count(html.ScriptForTest(), svgNamespace); n != 1 {
		t.Errorf("app.js names SVG's namespace %d times; want once, as SVG_NS", n)
	}
	for name, s := range map[string]string{"style.css": html.StyleForTest(), "app.js": strings.Replace(html.ScriptForTest(), svgNamespace, "SVG", 1), "page.html": html.PageForTest()} {
		for _, bad := range []string{"http:", "https:", "//cdn", "url(", "@import", "fetch(", "XMLHttpRequest", "WebSocket", "sendBeacon", "src=", "innerHTML", "eval("} {
			if strings.Contains(s, bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
		if name != "page.html" {
			for _, bad := range []string{"</style", "</script", "<!--"} {
				if strings.Contains(strings.ToLower(s), bad) {
					t.Errorf("%s contains %q, which would end its element", name, bad)
				}
			}
		}
	}
}
