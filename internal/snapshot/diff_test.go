package snapshot

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/trace"
)

// TestDiff: each kind of change reads as a line a reviewer understands.
func TestDiff(t *testing.T) {
	search := func(id string) trace.ToolCall { return call("search_orders", `{"order_id":"`+id+`"}`) }
	refund := call("refund_order", `{"amount":5,"order_id":"A-1042"}`)
	price := func(p string) trace.ToolCall { return call("get_price", `{"sku":"A-100","price":`+p+`}`) }
	structure := Rules{Text: TextStructure}
	for _, tc := range []struct {
		name      string
		want, got trace.Scope
		rules     Rules
		diff      []string
	}{
		{name: "equal", want: scope(turn(0, "", search("A-1042"))), got: scope(turn(0, "", search("A-1042")))},
		{name: "an argument changed",
			want: scope(turn(0, ""), turn(1, "", call("ping", ""), search("A-1042"))),
			got:  scope(turn(0, ""), turn(1, "", call("ping", ""), search("A-1043"))),
			diff: []string{`turn[1] call 2 search_orders: arguments.order_id: stored "A-1042", got "A-1043"`}},
		{name: "a call added",
			want: scope(turn(1, "", search("A-1042"))),
			got:  scope(turn(1, "", search("A-1042"), refund)),
			diff: []string{`+ turn[1] call 2 refund_order {"amount":5,"order_id":"A-1042"}`}},
		{name: "a call removed",
			want: scope(turn(0, "", search("A-1042"), refund, call("notify", `{}`))),
			got:  scope(turn(0, "", search("A-1042"), call("notify", `{}`))),
			diff: []string{`- turn[0] call 2 refund_order {"amount":5,"order_id":"A-1042"}`}},
		{name: "calls in another order",
			want: scope(turn(0, "", search("A-1042"), refund)),
			got:  scope(turn(0, "", refund, search("A-1042"))),
			diff: []string{`turn[0]: the same calls in another order: stored search_orders, refund_order; got refund_order, search_orders`}},
		{name: "one replaced by another, one changed",
			want: scope(turn(0, "", search("A-1"), refund, call("a", `{"x":[1,2]}`))),
			got:  scope(turn(0, "", call("lookup", `{"q":"A-1"}`), refund, call("a", `{"x":[1],"y":null}`))),
			diff: []string{
				`- turn[0] call 1 search_orders {"order_id":"A-1"}`,
				`+ turn[0] call 1 lookup {"q":"A-1"}`,
				`turn[0] call 3 a: arguments.x[1]: stored 2, got nothing`,
				`turn[0] call 3 a: arguments.y: stored nothing, got null`,
			}},
		{name: "arguments of another type",
			want: scope(turn(0, "", call("a", `{"odd key":{"n":1}}`))),
			got:  scope(turn(0, "", call("a", `{"odd key":"1"}`))),
			diff: []string{`turn[0] call 1 a: arguments["odd key"]: stored {"n":1}, got "1"`}},
		{name: "numbers within the tolerance", rules: Rules{Tolerance: tol(0.01)},
			want: scope(turn(0, "", price("89.50"))), got: scope(turn(0, "", price("89.505")))},
		{name: "numbers past the tolerance", rules: Rules{Tolerance: tol(0.01)},
			want: scope(turn(0, "", price("89.50"))), got: scope(turn(0, "", price("89.6"))),
			diff: []string{`turn[0] call 1 get_price: arguments.price: stored 89.50, got 89.6`}},
		{name: "the same number written otherwise", want: scope(turn(0, "", price("1.0"))), got: scope(turn(0, "", price("1")))},
		{name: "a turn more and a turn less",
			want: scope(turn(0, "", search("A-1")), turn(1, "", refund)),
			got:  scope(turn(0, "", search("A-1")), turn(2, "", refund, call("notify", ""))),
			diff: []string{`- turn[1]: 1 call (refund_order)`, `+ turn[2]: 2 calls (refund_order, notify)`}},
		{name: "the reply's shape", rules: structure,
			want: scope(turn(0, "# Orders\n\n- a\n- b\n\nDone.")),
			got:  scope(turn(0, "# Orders\n\n- a\n- b\n- c\n\n```json\n{}\n```\nDone.")),
			diff: []string{`turn[0] text: - list of 2 items`, `turn[0] text: + list of 3 items`, `turn[0] text: + code block (json)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, got := Take(tc.want, tc.rules), Take(tc.got, tc.rules)
			diff := Diff(want, got, tc.rules.Tol())
			if strings.Join(diff, "\n") != strings.Join(tc.diff, "\n") {
				t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(diff, "\n"), strings.Join(tc.diff, "\n"))
			}
			if eq := Equal(want, got, tc.rules.Tol()); eq != (len(tc.diff) == 0) {
				t.Errorf("Equal = %v with %d differences", eq, len(diff))
			}
		})
	}
}

// TestDiffText: a reply kept otherwise, or not kept, says so; exact
// words differ line by line.
func TestDiffText(t *testing.T) {
	s := scope(turn(0, "Hello  world.\nBye."))
	none, shape, exact := Take(s, Rules{}), Take(s, Rules{Text: TextStructure}), Take(s, Rules{Text: TextExact})
	other := Take(scope(turn(0, "Hello world.\nSee you.")), Rules{Text: TextExact})
	for _, tc := range []struct {
		name      string
		want, got Snapshot
		diff      string
	}{
		{"none, then structure", none, shape, "turn[0] text: stored none, got structure"},
		{"exact, then structure", exact, shape, "turn[0] text: stored exact, got structure"},
		{"structure, then none", shape, none, "turn[0] text: stored structure, got none"},
		{"other words", exact, other, "turn[0] text: - Bye.\nturn[0] text: + See you."},
	} {
		if got := strings.Join(Diff(tc.want, tc.got, 0), "\n"); got != tc.diff {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.diff)
		}
	}
}

// TestLCS: the longest common subsequence, its common start and end
// taken first, and a middle too large left unmatched.
func TestLCS(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want string
	}{
		{"abc", "abc", "abc"},
		{"abcbdab", "bdcaba", "bcba"},
		{"xaby", "xbay", "xay"},
		{"", "abc", ""},
		{"abc", "", ""},
	} {
		pairs := lcs(len(tc.a), len(tc.b), func(i, j int) bool { return tc.a[i] == tc.b[j] })
		var got strings.Builder
		for _, p := range pairs {
			if tc.a[p[0]] != tc.b[p[1]] {
				t.Fatalf("%q/%q: pair %v does not match", tc.a, tc.b, p)
			}
			got.WriteByte(tc.a[p[0]])
		}
		if len(got.String()) != len(tc.want) {
			t.Errorf("lcs(%q, %q) = %q, want %d long like %q", tc.a, tc.b, got.String(), len(tc.want), tc.want)
		}
	}
	n := 1 << 12 // a middle of n×n > maxCells cells
	a, b := strings.Repeat("a", n)+"x", "x"+strings.Repeat("b", n)+"x"
	if got := lcs(len(a), len(b), func(i, j int) bool { return a[i] == b[j] }); len(got) != 1 || got[0] != [2]int{n, n + 1} {
		t.Errorf("a large middle: %v; want the common end alone", got)
	}
}
