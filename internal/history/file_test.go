package history

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// sample is a small history with each kind of result: flaky, repeated,
// skipped, absent, with usage known, unknown and priced.
func sample(t testing.TB) *History {
	t.Helper()
	h := build(t, map[string]string{
		"tests/checkout": "pfpPp",
		"tests/search":   "ppsff",
		"tests/weather":  "..ppE",
	})
	// The newest run ran search 10 times and priced checkout's attempts.
	tokens, usd := 1234.5, 0.0125
	last := len(h.Runs) - 1
	h.Test("tests/search").Results[last].Runs = 10
	h.Test("tests/search").Results[last].PassedRuns = 6
	h.Test("tests/checkout").Results[last].Tokens = &tokens
	h.Test("tests/checkout").Results[last].CostUSD = &usd
	h.Runs[last].URL = "https://github.com/o/r/actions/runs/9004"
	return h
}

func equalHistories(t *testing.T, got, want *History) {
	t.Helper()
	g, w := *got, *want
	g.index, w.index = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("history differs:\ngot  %+v\nwant %+v", g, w)
	}
}

// TestFileRoundTrip: a history read back from its file is the history
// written, and writes the same bytes; the file is the documented one.
func TestFileRoundTrip(t *testing.T) {
	h := sample(t)
	data, err := Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", "sample.history.json"), string(data))
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	equalHistories(t, back, h)
	again, err := Marshal(back)
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("written again: %v\n%s\nwant\n%s", err, again, data)
	}
	path := filepath.Join(t.TempDir(), "history.json")
	if err := WriteFile(path, data); err != nil {
		t.Fatal(err)
	}
	read, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	equalHistories(t, read, h)
	// Defaults are left out: one run each, passed when the test passed,
	// no usage.
	if s := string(data); !strings.Contains(s, `"id":"tests/weather","name":"test tests/weather","file":"tests/weather.ananke.yaml","line":1,"statuses":"..ppE","duration_ms":[0,0,300,300,300]}`) {
		t.Errorf("weather's row is not the compact one:\n%s", s)
	}
}

// TestAddAndTrim: a run appends, a run of the same id replaces, the tests'
// order is the newest run's, and trimming drops the oldest runs and the
// tests only they had.
func TestAddAndTrim(t *testing.T) {
	h := build(t, map[string]string{"a": "pp.", "b": "ppp", "old": "f.."})
	if got := ids(h); got != "b a old" {
		t.Fatalf("tests = %s", got)
	}
	// The newest run has c before b, and not a.
	h.Add(Run{ID: "n1", Number: 4}, reportOf(t0.Add(5*time.Hour), []string{"c", "b"}, "pf"))
	if got := ids(h); got != "c b a old" {
		t.Errorf("tests = %s; want the newest run's first", got)
	}
	if c := h.Test("c"); c == nil || string(seq(c)) != "...p" {
		t.Errorf("c = %v; want absent, then passed", c)
	}
	// The same run again, now failing c: it replaces the run.
	h.Add(Run{ID: "n1", Number: 4}, reportOf(t0.Add(6*time.Hour), []string{"c", "b"}, "ff"))
	if len(h.Runs) != 4 || string(seq(h.Test("c"))) != "...f" || !h.Runs[3].StartedAt.Equal(t0.Add(6*time.Hour)) {
		t.Errorf("runs %d, c %q; want 4 runs, c failing in the replaced run", len(h.Runs), seq(h.Test("c")))
	}
	h.Trim(2)
	if got := ids(h); len(h.Runs) != 2 || got != "c b" || h.Runs[0].Number != 3 {
		t.Errorf("trimmed to %d runs from #%d, tests %s; want 2 from #3, tests c b (a and old were in dropped runs only)", len(h.Runs), h.Runs[0].Number, got)
	}
	if h.Test("old") != nil || h.Test("a") != nil {
		t.Error("a test of dropped runs only is still found")
	}
	h.Trim(0)
	if len(h.Runs) != 0 || len(h.Tests) != 0 {
		t.Errorf("Trim(0) left %d runs, %d tests", len(h.Runs), len(h.Tests))
	}
}

// TestAddOddReports: what summary.json never holds — a run without a
// status, a test with another status or no id — still makes a file that
// reads back.
func TestAddOddReports(t *testing.T) {
	h := &History{}
	r := reportOf(t0, []string{"a", "b", ""}, "ppp")
	r.Status, r.Tests[1].Status = "", status.Warn
	h.Add(Run{ID: "1"}, r)
	data, err := Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if ids(back) != "a" || back.Runs[0].Status != status.Error {
		t.Errorf("read back: tests %q, run %+v; want a alone, the run an error", ids(back), back.Runs)
	}
}

func ids(h *History) string {
	var s []string
	for _, t := range h.Tests {
		s = append(s, t.ID)
	}
	return strings.Join(s, " ")
}

func seq(t *Test) []byte {
	out := make([]byte, len(t.Results))
	for i, r := range t.Results {
		out[i] = r.Char()
	}
	return out
}

// large is a history of runs runs of a suite of tests tests, each run
// once, with its duration and usage known.
func large(t testing.TB, runs, tests int) *History {
	t.Helper()
	h := &History{}
	for i := range runs {
		r := &report.Report{Schema: report.Schema, StartedAt: t0.Add(time.Duration(i) * time.Hour), Status: status.Pass}
		for k := range tests {
			tokens, usd := float64(1000+k), 0.001*float64(k%7)
			r.Tests = append(r.Tests, report.Test{ID: fmt.Sprintf("tests/dataset-%04d", k), Name: fmt.Sprintf("case %d", k),
				File: "tests/dataset.jsonl", Line: k + 1, Status: status.Pass, Runs: 1, PassedRuns: 1, DurationMs: int64(1000 + 37*k%5000),
				PerAttempt: &report.AttemptUsage{Attempts: 1, MeanTokens: &tokens, MeanCostUSD: &usd}})
		}
		h.Add(Run{ID: fmt.Sprint(20000 + i), Number: int64(i + 1), Commit: fmt.Sprintf("%040x", i)}, r)
	}
	return h
}

// TestBound: a history keeps at most N runs, the newest, and at most the
// bytes asked for, dropping the oldest runs; a run that alone is over the
// bound is an error. A test costs a few bytes a run.
func TestBound(t *testing.T) {
	h := large(t, 30, 1000)
	data, err := Bound(h, 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Runs) != 20 || h.Runs[0].Number != 11 || h.Runs[19].Number != 30 {
		t.Errorf("kept %d runs, #%d to #%d; want the newest 20, #11 to #30", len(h.Runs), h.Runs[0].Number, h.Runs[19].Number)
	}
	// Per test and run: a status character, a duration, tokens and a cost
	// (usage is the most of it); the id and name once per test.
	perCell := float64(len(data)) / (20 * 1000)
	if perCell > 30 {
		t.Errorf("%d bytes: %.1f a test a run; want at most 30", len(data), perCell)
	}
	const limit = 200_000
	data, err = Bound(h, 20, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > limit || len(h.Runs) >= 20 || h.Runs[len(h.Runs)-1].Number != 30 {
		t.Errorf("%d bytes, %d runs, the newest #%d; want at most %d bytes, fewer runs, the newest kept", len(data), len(h.Runs), h.Runs[len(h.Runs)-1].Number, limit)
	}
	back, err := Parse(data)
	if err != nil || len(back.Runs) != len(h.Runs) {
		t.Fatalf("bounded file read back: %v", err)
	}
	if _, err := Bound(h, 20, 1000); !errors.Is(err, ErrTooLarge) || len(h.Runs) != 1 {
		t.Errorf("1000 bytes: %v, %d runs; want ErrTooLarge, the newest run kept", err, len(h.Runs))
	}
}

// TestParseRefuses: a file of another schema, or whose parts do not
// agree, is refused with what is wrong.
func TestParseRefuses(t *testing.T) {
	head := `{"schema":"ananke.history/v1","runs":[{"id":"1","started_at":"2026-03-01T09:00:00Z","status":"pass"},{"id":"2","started_at":"2026-03-01T10:00:00Z","status":"pass"}],"tests":[`
	for _, tc := range []struct{ name, data, want string }{
		{"not json", `{`, "history file: unexpected end"},
		{"schema", `{"schema":"ananke.report/v1"}`, `history file has schema "ananke.report/v1"; this Ananke reads "ananke.history/v1"`},
		{"short statuses", head + `{"id":"a","statuses":"p"}]}`, `test "a": statuses has 1 entries for 2 runs`},
		{"status", head + `{"id":"a","statuses":"px"}]}`, `test "a": statuses: 'x' at run 2`},
		{"flaky skip", head + `{"id":"a","statuses":"pS"}]}`, `statuses: 'S' at run 2`},
		{"runs", head + `{"id":"a","statuses":"pp","runs":[1]}]}`, "runs has 1 entries for 2 runs"},
		{"passed", head + `{"id":"a","statuses":"pp","runs":[1,1],"passed_runs":[1,2]}]}`, "run 2: a negative count, or more passed runs than runs"},
		{"negative", head + `{"id":"a","statuses":"pp","duration_ms":[1,-1]}]}`, "run 2: a negative count"},
		{"cost", head + `{"id":"a","statuses":"pp","cost_usd":[null,-0.1]}]}`, "run 2: a negative count"},
		{"no id", head + `{"statuses":"pp"}]}`, "no id"},
		{"twice", head + `{"id":"a","statuses":"pp"},{"id":"a","statuses":"pf"}]}`, `test "a" is there twice`},
		{"never", head + `{"id":"a","statuses":".."}]}`, `test "a": no run has it`},
		{"run id", `{"schema":"ananke.history/v1","runs":[{"started_at":"2026-03-01T09:00:00Z","status":"pass"}],"tests":[]}`, "run 1 has no id"},
		{"run twice", `{"schema":"ananke.history/v1","runs":[{"id":"1","started_at":"2026-03-01T09:00:00Z","status":"pass"},{"id":"1","started_at":"2026-03-01T09:00:00Z","status":"pass"}],"tests":[]}`, `run "1" is there twice`},
		{"run status", `{"schema":"ananke.history/v1","runs":[{"id":"1","started_at":"2026-03-01T09:00:00Z","status":"skipped"}],"tests":[]}`, `run "1": status "skipped" is not pass, fail or error`},
		{"line", head + `{"id":"a","line":-1,"statuses":"pp"}]}`, `test "a": line -1`},
	} {
		_, err := Parse([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
	if h, err := Parse([]byte(`{"schema":"ananke.history/v1","runs":[],"tests":[]}`)); err != nil || len(h.Runs) != 0 {
		t.Errorf("an empty history: %v", err)
	}
}
