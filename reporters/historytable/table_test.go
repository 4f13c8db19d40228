package historytable

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/history/historytest"
)

// fixture is historytest.Main's history.
func fixture(priced bool) *history.History { return historytest.History(historytest.Main(priced)) }

func text(t *testing.T, tb *Table) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, tb); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestGolden: the table of the fixture in each format, cut to a top of
// two, with costs or with tokens only, and of an empty history.
func TestGolden(t *testing.T) {
	tb := Build(fixture(true), Options{Top: DefaultTop})
	golden.Assert(t, filepath.Join("testdata", "table.txt"), text(t, tb))
	golden.Assert(t, filepath.Join("testdata", "table.md"), Markdown(tb))
	var b bytes.Buffer
	if err := WriteJSON(&b, tb); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", "table.json"), b.String())
	golden.Assert(t, filepath.Join("testdata", "top2-tokens.txt"), text(t, Build(fixture(false), Options{Top: 2})))
	golden.Assert(t, filepath.Join("testdata", "empty.txt"), text(t, Build(&history.History{}, Options{})))
}

// TestSections: what each section holds and in what order.
func TestSections(t *testing.T) {
	tb := Build(fixture(true), Options{})
	ids := func(s Section) string {
		var out []string
		for _, f := range s.Facts {
			out = append(out, f.Test.ID)
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name string
		sec  Section
		want string
	}{
		// search: 4 flakes in 20; checkout 2 (flaky twice); md 1; weather
		// failing now is no flake.
		{"flakiest", tb.Flakiest, "tests/search tests/checkout tests/md"},
		{"failing", tb.Failing, "tests/weather"},
		{"slowest", tb.Slowest, "tests/slow tests/md tests/refunds#7 tests/checkout tests/weather tests/search"},
		// Priced: only search has a cost.
		{"expensive", tb.Expensive, "tests/search"},
	} {
		if got := ids(tc.sec); got != tc.want {
			t.Errorf("%s = %s; want %s", tc.name, got, tc.want)
		}
	}
	if !tb.ByCost {
		t.Error("not by cost, though search is priced")
	}
	if tb := Build(fixture(false), Options{}); tb.ByCost || ids(tb.Expensive) != "tests/slow tests/search" {
		t.Errorf("tokens only: by cost %v, %s; want by tokens, slow then search", tb.ByCost, ids(tb.Expensive))
	}
	if tb := Build(fixture(true), Options{Top: 1}); len(tb.Slowest.Facts) != 1 || tb.Slowest.More != 5 {
		t.Errorf("top 1: %d shown, %d more; want 1 and 5", len(tb.Slowest.Facts), tb.Slowest.More)
	}
	// The JSON is what the facts are.
	var b bytes.Buffer
	WriteJSON(&b, tb)
	var out struct {
		Failing struct {
			Tests []struct {
				Since struct{ Number int64 } `json:"failing_since"`
				Rate  float64                `json:"pass_rate"`
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || len(out.Failing.Tests) != 1 || out.Failing.Tests[0].Since.Number != 39 || out.Failing.Tests[0].Rate != 85 {
		t.Errorf("JSON failing: %v %+v; want weather, since #39, pass rate 85", err, out.Failing)
	}
}
