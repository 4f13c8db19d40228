package snapshot

import (
	"strings"
	"testing"
)

// TestParseIgnore: TOOL.path and *.path, members, * and [N]/[*]; the
// rest is refused, saying what is wrong.
func TestParseIgnore(t *testing.T) {
	args := `{"id":"x","items":[{"id":1,"sku":"a"},{"id":2,"sku":"b"}],"meta":{"at":"now","trace":{"id":"t"}}}`
	for _, tc := range []struct {
		path, tool string
		want       string // the arguments of a call to tool after the path
		bad        string
	}{
		{path: "search.id", tool: "search", want: `{"id":"<ignored>","items":[{"id":1,"sku":"a"},{"id":2,"sku":"b"}],"meta":{"at":"now","trace":{"id":"t"}}}`},
		{path: "search.id", tool: "other", want: args},
		{path: "*.meta.trace.id", tool: "any", want: `{"id":"x","items":[{"id":1,"sku":"a"},{"id":2,"sku":"b"}],"meta":{"at":"now","trace":{"id":"<ignored>"}}}`},
		{path: "*.items[*].id", tool: "t", want: `{"id":"x","items":[{"id":"<ignored>","sku":"a"},{"id":"<ignored>","sku":"b"}],"meta":{"at":"now","trace":{"id":"t"}}}`},
		{path: "*.items[1]", tool: "t", want: `{"id":"x","items":[{"id":1,"sku":"a"},"<ignored>"],"meta":{"at":"now","trace":{"id":"t"}}}`},
		{path: "*.meta.*", tool: "t", want: `{"id":"x","items":[{"id":1,"sku":"a"},{"id":2,"sku":"b"}],"meta":{"at":"<ignored>","trace":"<ignored>"}}`},
		{path: "*.items.id", tool: "t", want: args},     // items is a list: a member selects nothing
		{path: "*.meta[0]", tool: "t", want: args},      // meta is an object: an index selects nothing
		{path: "*.missing.deep", tool: "t", want: args}, // nothing there
		{path: "search", bad: "is not TOOL.path"},
		{path: ".id", bad: "is not TOOL.path"},
		{path: "search.", bad: "is not TOOL.path"},
		{path: "a[0].id", bad: "cannot hold [ or ]"},
		{path: "t.a..b", bad: "an empty member name"},
		{path: "t.[0]", bad: "an empty member name"},
		{path: "t.a[x]", bad: "[x] is not an index"},
		{path: "t.a[-1]", bad: "[-1] is not an index"},
		{path: "t.a[0", bad: `"[0" is not [N] or [*]`},
		{path: "t.a[0]b", bad: `"b" is not [N] or [*]`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			in, err := ParseIgnore(tc.path)
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("error %v, want one saying %q", err, tc.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			n := normalizer{rules: Rules{Ignore: []Ignore{in}}}
			if got := compact(n.args(tc.tool, parseArgs(args))); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestExtend: an assertion's rules extend the suite's.
func TestExtend(t *testing.T) {
	suite := Rules{Text: TextStructure, Ignore: []Ignore{mustIgnore("*.a")}, Replace: []Replace{replace("x", "y")}, Tolerance: tol(0.5)}
	if got := suite.Extend(Rules{}); got.Text != TextStructure || got.Tol() != 0.5 || len(got.Ignore) != 1 || len(got.Replace) != 1 {
		t.Errorf("extended by nothing: %+v", got)
	}
	got := suite.Extend(Rules{Text: TextExact, Ignore: []Ignore{mustIgnore("*.b")}, Tolerance: tol(0)})
	if got.Text != TextExact || got.Tol() != 0 || len(got.Ignore) != 2 || got.Ignore[1].Raw != "*.b" || len(got.Replace) != 1 {
		t.Errorf("extended: %+v", got)
	}
	if (Rules{}).TextMode() != TextNone || (Rules{}).Tol() != 0 {
		t.Error("the zero rules keep text or have a tolerance")
	}
}

// TestDefaults: what the default normalisation replaces, and what it
// leaves.
func TestDefaults(t *testing.T) {
	n := normalizer{}
	for in, want := range map[string]string{
		"550E8400-E29B-41D4-A716-446655440000":           UUID,
		"id=550e8400-e29b-41d4-a716-446655440000;":       "id=" + UUID + ";",
		"2026-03-01T10:00:00Z":                           Timestamp,
		"2026-03-01T10:00:00.123+02:00 then":             Timestamp + " then",
		"2026-03-01 10:00":                               Timestamp,
		"2026-03-01":                                     "2026-03-01", // a date alone is meaningful
		"a1b2c3d4e5f60718":                               ID,           // 16 hex digits
		"a1b2c3d4e5f6071":                                "a1b2c3d4e5f6071",
		"4242424242424242":                               "4242424242424242", // digits alone: a number
		"deadbeefdeadbeef":                               "deadbeefdeadbeef", // letters alone: a word
		"01ARZ3NDEKTSV4RRFFQ69G5FAV":                     ID,                 // a ULID
		"call_Xy7AbC9dEf2GhI4jKl6M":                      ID,
		"internationalization_of_things_2":               "internationalization_of_things_2",
		"get_customer_orders_by_region_v2":               "get_customer_orders_by_region_v2",
		"A-1042":                                         "A-1042",
		"ord_" + strings.Repeat("Ab1", 7) + " and A-100": ID + " and A-100",
		"<uuid> <timestamp> <id> <ignored>":              "<uuid> <timestamp> <id> <ignored>",
	} {
		if got := n.text(in); got != want {
			t.Errorf("text(%q) = %q, want %q", in, got, want)
		}
	}
}
