package assertion

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// TestFindClaims pins what counts as a claim, as written, normalized, and
// at which character.
func TestFindClaims(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // "text=value@char"
	}{
		{"currency and separators", "Total: $3,500.00 for 2 items", []string{"$3,500.00=3500@7"}},
		{"same value, two spellings", "3500 or 3,500", []string{"3500=3500@0", "3,500=3500@8"}},
		{"percent and decimals", "Growth was 12.5% (vs 11%)", []string{"12.5%=12.5@11", "11%=11@21"}},
		{"euro and pound", "€1,299 or £45.5", []string{"€1,299=1299@0", "£45.5=45.5@10"}},
		{"trivially small whole numbers", "0, 7, 10, 1.0 and 11", []string{"11=11@18"}},
		{"small decimals are claims", "0.5 or 10.5", []string{"0.5=0.5@0", "10.5=10.5@7"}},
		{"identifiers", "SKU A-100, v2, ch_123, ORD-2024-0042, 15km, 3x20, id_42", nil},
		{"a hyphen after a space is no identifier", "30-day trial, -15 degrees", []string{"30=30@0", "15=15@15"}},
		{"versions and addresses", "version 1.2.3 at 10.0.0.1", nil},
		{"odd grouping is no number", "2,50 and 12,34,567", nil},
		{"sentence punctuation", "It costs 3,500. Then 42, 43; 44!", []string{"3,500=3500@9", "42=42@21", "43=43@25", "44=44@29"}},
		{"currency before a word", "US$100", []string{"$100=100@2"}},
		{"characters, not bytes", "Café → $42", []string{"$42=42@7"}},
		{"URL trailing punctuation", "See https://x.example/a/3500. Or (https://y.example/)!", []string{
			"https://x.example/a/3500=https://x.example/a/3500@4", "https://y.example/=https://y.example@34"}},
		{"URL stops at quotes and brackets", `["https://x.example/q?a=1&b=2"] <http://z.example/p>`, []string{
			"https://x.example/q?a=1&b=2=https://x.example/q?a=1&b=2@2", "http://z.example/p=http://z.example/p@33"}},
		{"bare scheme", "https:// and http://.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range findClaims(tc.text, true, true) {
				got = append(got, c.Text+"="+c.Value+"@"+strconv.Itoa(c.Char))
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("findClaims(%q) =\n  %q\nwant\n  %q", tc.text, got, tc.want)
			}
		})
	}
}

func groundedCheck(numbers, urls bool, ignore ...string) Check {
	g := &Grounded{Numbers: numbers, URLs: urls}
	for _, re := range ignore {
		g.Ignore = append(g.Ignore, vars.MustRegex(re))
	}
	return Check{Kind: KindGrounded, Payload: g}
}

// answered is a turn where the user asked user, a tool returned result
// (JSON when it parses) and the assistant replied text.
func answered(user, result, text string) trace.Turn {
	t := replyTurn(text)
	t.UserText = user
	if result != "" {
		t.ToolCalls = []trace.ToolCall{call("c1", "lookup", `{"q": "x"}`, func(c *trace.ToolCall) {
			c.Result = &trace.Result{Content: result, JSON: strings.HasPrefix(result, "{")}
		})}
	}
	return t
}

func TestGrounded(t *testing.T) {
	both := groundedCheck(true, true)
	weather := `{"temp_c": 21, "humidity": 0.64, "url": "https:\/\/w.example\/paris", "price_usd": 3500, "big": 1e3}`
	prior := scopeOf(answered("My budget is 4,200 euros", "", "Noted."), answered("And now?", "", "Within your 4200 budget."))
	history := reply("As you said, order 98765 ships today.")
	history.History = []trace.Message{{Role: "user", Content: "my order is #98765"}}
	args := scopeOf(answered("", "", "I searched for 1234 items."))
	args.Turns[0].ToolCalls = []trace.ToolCall{call("c1", "search", `{"limit": 1234}`)}
	assistantEarlier := scopeOf(replyTurn("The fee is 75."), replyTurn("As I said, the fee is 75."))
	whole := trace.Trace{Turns: []trace.Turn{replyTurn("It costs 99.")}}
	runCases(t, []evalCase{
		{"supported by a JSON tool result", both, scopeOf(answered("", weather, "It is 21°C with 0.64 humidity in Paris: https://w.example/paris/. About $3,500.00 or 1,000.")), status.Pass,
			"all 5 claims in turn[0]'s reply appear in a tool result, tool argument, user message or history"},
		{"no claims", both, reply("Order ORD-4821 ships with tracking ZX_99812 in 2 days."), status.Pass, "no numbers or URLs to check in turn[0]'s reply"},
		{"user message of an earlier turn", both, prior, status.Pass, ""},
		{"history", both, history, status.Pass, ""},
		{"tool arguments", both, args, status.Pass, ""},
		{"the assistant is no source for itself", both, assistantEarlier, status.Fail, `1 claim in turn[1]'s reply appears in no tool result`},
		{"source numbers are read permissively", both, scopeOf(answered("", `{"sku": "A-100", "list": [3,500]}`, "Item 100 costs 500 (3,500 total).")), status.Pass, ""},
		{"ignore exempts a claim as written", groundedCheck(true, true, `^20\d\d$`), reply("Since 2026, nothing changed."), status.Pass, "no numbers or URLs to check"},
		{"ignore does not exempt others", groundedCheck(true, true, `^20\d\d$`), reply("Since 2026, 40 stores."), status.Fail, `"40" (char 12)`},
		{"numbers only", groundedCheck(true, false), reply("See https://nowhere.example for 42 tips."), status.Fail, `1 claim in turn[0]'s reply appears in no tool result, tool argument, user message or history: "42" (char 32)`},
		{"digits in a URL are no number, URLs checked or not", groundedCheck(true, false), reply("See https://x.example/p/12345?page=77."), status.Pass, "no numbers or URLs to check"},
		{"URLs only", groundedCheck(false, true), reply("See https://nowhere.example for 42 tips."), status.Fail, `: https://nowhere.example (char 4)`},
		{"a longer path is no support", both, scopeOf(answered("", "see https://x.example/api", "Docs: https://x.example/a")), status.Fail, "https://x.example/a (char 6)"},
		{"a longer host is no support", both, scopeOf(answered("", "https://x.example.evil.test/", "Docs: https://x.example")), status.Fail, "https://x.example (char 6)"},
		{"a query, fragment or trailing slash is", both, scopeOf(answered("", "https://x.example/a?ref=1 and https://x.example/b#top, https://x.example/c/.", "https://x.example/a https://x.example/b/ https://x.example/c")), status.Pass, ""},
		{"test scope", both, whole.TestScope(), status.Fail, "in the test's replies"},
	})
	unsupported := reply("It costs $3,600. Details: https://x.example/a")
	runExact(t, []exactCase{
		{"unsupported claims", both, unsupported, status.Fail,
			`2 claims in turn[0]'s reply appear in no tool result, tool argument, user message or history: "$3,600" (char 9), https://x.example/a (char 26)`},
	})
	r := evalOne(t, both, unsupported)
	if len(r.Evidence) != 2 || r.Evidence[0].Note != `unsupported number "$3,600" (3600) at char 9 of turn[0]'s reply` ||
		r.Evidence[1].Note != "unsupported URL https://x.example/a at char 26 of turn[0]'s reply" || r.Evidence[0].Text != unsupported.Text() || !hasRefs(r, 1, 2, 3) {
		t.Errorf("evidence %+v, refs %v; want one item per claim with the excerpt and the text events", r.Evidence, r.EventRefs)
	}
	many := evalOne(t, both, reply("Numbers: 11 12 13 14 15 16 17."))
	if !strings.HasSuffix(many.Message, `"15" (char 21), 2 more`) || len(many.Evidence) != 7 {
		t.Errorf("message %q with %d evidence items; want 5 claims named, then a count, and evidence for all 7", many.Message, len(many.Evidence))
	}
	ignored := evalOne(t, groundedCheck(true, true, "^2026$"), reply("In 2026: 55."))
	if ignored.Observed != "1 claim, 1 unsupported, 1 ignored" {
		t.Errorf("Observed = %q; want the checked, unsupported and ignored counts", ignored.Observed)
	}
}

// FuzzGrounded runs the claim extractor and the check over arbitrary text
// and sources: no panic, every claim found where it says, in order.
func FuzzGrounded(f *testing.F) {
	for _, s := range []string{
		"Total: $3,500.00 (12.5%) see https://x.example/a/3500.",
		"€1,299 £45.5 US$100 A-100 v2 ch_1 1.2.3 10.0.0.1 2,50",
		"Café → $42 https://ü.example/ä?q=1)] 'https://y.example'",
		"\xff\xfe$1,000\xc3 https://\xff 99%",
		"1,,000 1..5 .5 5. -7 ,123 0000000000000000000000000000012",
		"https://https://x 12,345,678.901.2 $€100 £",
	} {
		f.Add(s, `{"n": 3500, "u": "https:\/\/x.example\/a"}`)
	}
	f.Fuzz(func(t *testing.T, text, source string) {
		prev := -1
		for _, c := range findClaims(text, true, true) {
			if c.Start < 0 || c.End > len(text) || c.Start >= c.End || text[c.Start:c.End] != c.Text {
				t.Fatalf("claim %+v is not at its offsets in %q", c, text)
			}
			if utf8.RuneCountInString(text[:c.Start]) != c.Char {
				t.Fatalf("claim %+v: char %d, want %d", c, c.Char, utf8.RuneCountInString(text[:c.Start]))
			}
			if c.Start < prev || c.Value == "" {
				t.Fatalf("claim %+v out of order or without a value", c)
			}
			if !c.URL {
				if v, err := strconv.ParseFloat(c.Value, 64); err != nil || trivial(c.Value) || v < 0 {
					t.Fatalf("number claim %+v: value %q", c, c.Value)
				}
			}
			prev = c.End
		}
		s := scopeOf(answered(source, source, text))
		r := evalOne(t, groundedCheck(true, true), s)
		if r.Status != status.Pass && r.Status != status.Fail || r.Message == "" {
			t.Fatalf("result %+v", r)
		}
	})
}
