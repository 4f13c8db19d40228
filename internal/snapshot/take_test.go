package snapshot

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/trace"
)

// TestTake: a snapshot holds each turn's calls in order, arguments parsed
// with numbers as written and normalised, and the reply as the rules say.
func TestTake(t *testing.T) {
	s := scope(
		turn(0, "# Orders\n\nFound it.", call("search_orders", `{"order_id":"A-1042","request_id":"7f9c2e1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b","since":"2026-03-01T10:00:00Z","limit":10.50}`)),
		turn(1, "Refunded  5 EUR,\n\n  thanks.", call("refund_order", `{"amount":5,"token":"tok_Ab3dEf6hIj9kLm2nOp5q"}`), call("notify", `not json`), call("ping", ``)),
	)
	for _, tc := range []struct {
		name  string
		rules Rules
		want  string
	}{
		{"defaults", Rules{},
			`0 search_orders {"limit":10.50,"order_id":"A-1042","request_id":"<uuid>","since":"<timestamp>"}` + "\n" +
				`1 refund_order {"amount":5,"token":"<id>"} | notify "not json" | ping null`},
		{"structure", Rules{Text: TextStructure},
			`0 search_orders {"limit":10.50,"order_id":"A-1042","request_id":"<uuid>","since":"<timestamp>"} text structure: heading 1 / 1 paragraph` + "\n" +
				`1 refund_order {"amount":5,"token":"<id>"} | notify "not json" | ping null text structure: 2 paragraphs`},
		{"exact, ignored and replaced", Rules{Text: TextExact, Ignore: []Ignore{mustIgnore("search_orders.limit"), mustIgnore("*.amount")},
			Replace: []Replace{replace(`A-\d+`, "<order>"), replace(`EUR`, "€")}},
			`0 search_orders {"limit":"<ignored>","order_id":"<order>","request_id":"<uuid>","since":"<timestamp>"} text exact: # Orders / Found it.` + "\n" +
				`1 refund_order {"amount":"<ignored>","token":"<id>"} | notify "not json" | ping null text exact: Refunded 5 €, / thanks.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := render(Take(s, tc.rules)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// render shows a snapshot one turn a line.
func render(s Snapshot) string {
	var lines []string
	for _, t := range s.Turns {
		var calls []string
		for _, c := range t.Calls {
			calls = append(calls, c.Name+" "+shown(c.Args))
		}
		l := strconv.Itoa(t.Index) + " " + strings.Join(calls, " | ")
		if t.Reply != nil {
			l += " text " + string(t.Reply.Mode) + ": " + strings.Join(t.Reply.Lines, " / ")
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// TestTakeTurnScope: a turn's scope holds that turn alone, with its
// index.
func TestTakeTurnScope(t *testing.T) {
	tr := &trace.Trace{Turns: []trace.Turn{turn(0, "a", call("x", `{}`)), turn(1, "b", call("y", `{"n":1}`))}}
	if got := render(Take(tr.TurnScope(1), Rules{})); got != `1 y {"n":1}` {
		t.Errorf("got %q", got)
	}
}

// TestNormalizeIsIdempotent: what the defaults wrote, they leave alone,
// so a stored snapshot normalised again is the same.
func TestNormalizeIsIdempotent(t *testing.T) {
	s := Take(scope(turn(0, "id 550e8400-e29b-41d4-a716-446655440000 at 2026-01-02 03:04", call("a", `{"k":"01ARZ3NDEKTSV4RRFFQ69G5FAV","h":"deadbeef00112233"}`))), Rules{Text: TextExact})
	again := Normalize(s, Rules{})
	if !Equal(s, again, 0) {
		t.Errorf("normalised again: %s\nwas %s", render(again), render(s))
	}
	if got := render(s); got != `0 a {"h":"<id>","k":"<id>"} text exact: id <uuid> at <timestamp>` {
		t.Errorf("got %s", got)
	}
}
