package assertion

import (
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

func literal(kind Kind, text string, caseSensitive bool) Check {
	return Check{Kind: kind, Payload: &TextCheck{Text: text, CaseSensitive: caseSensitive}}
}

func TestContains(t *testing.T) {
	s := reply("Your refund is on its way.")
	runCases(t, []evalCase{
		{"literal", literal(KindContains, "refund is", false), s, status.Pass, `assistant text contains "refund is"`},
		{"ignores case by default", literal(KindContains, "REFUND", false), s, status.Pass, ""},
		{"regex characters are literal", literal(KindContains, "way.", false), reply("no wayX"), status.Fail, `does not contain "way."`},
		{"unicode case folding", literal(KindContains, "ÉCOLE", false), reply("à l'école"), status.Pass, ""},
		{"no text", literal(KindContains, "refund", false), scopeOf(turnOf("")), status.Fail, "no assistant text"},
	})
	runExact(t, []exactCase{
		{"case-sensitive", literal(KindContains, "Refund", true), s, status.Fail,
			`assistant text in turn[0] does not contain "Refund" (case-sensitive): "Your refund is on its way."`},
	})
	r := evalOne(t, literal(KindContains, "refund", false), s)
	if len(r.Evidence) != 1 || r.Evidence[0].Text != "Your refund is on its way." || !hasRefs(r, 1, 2, 3) {
		t.Errorf("evidence %+v, refs %v; want the excerpt and the text events", r.Evidence, r.EventRefs)
	}
}

func TestOmits(t *testing.T) {
	s := reply("An Error occurred while charging.")
	runCases(t, []evalCase{
		{"absent", literal(KindOmits, "exception", false), s, status.Pass, `assistant text does not contain "exception"`},
		{"case-sensitive miss", literal(KindOmits, "error", true), s, status.Pass, ""},
		{"no text omits everything", literal(KindOmits, "error", false), scopeOf(turnOf("")), status.Pass, ""},
	})
	runExact(t, []exactCase{
		{"present, other case", literal(KindOmits, "error", false), s, status.Fail,
			`assistant text in turn[0] contains "error", which it must omit: "An Error occurred while charging."`},
	})
	long := reply("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do: ERROR 42 and then a great deal more text that follows.")
	r := evalOne(t, literal(KindOmits, "error 42", false), long)
	if want := "…t, consectetur adipiscing elit, sed do: ERROR 42 and then a great deal more text that fo…"; len(r.Evidence) != 1 || r.Evidence[0].Text != want {
		t.Errorf("evidence %+v; want the excerpt %q", r.Evidence, want)
	}
	if r.Observed != `contains "ERROR 42" at char 65` || !hasRefs(r, 2) {
		t.Errorf("Observed %q, refs %v; want the occurrence as written and its position", r.Observed, r.EventRefs)
	}
}

func TestEquals(t *testing.T) {
	runCases(t, []evalCase{
		{"trimmed, ignoring case", literal(KindEquals, " done. ", false), reply("\n  Done.  \n"), status.Pass, `assistant text equals "done."`},
		{"case-sensitive", literal(KindEquals, "done.", true), reply("Done."), status.Fail, `(case-sensitive) (they first differ at char 0: "D" vs "d")`},
		{"whole reply, not a part", literal(KindEquals, "Done.", false), reply("Done. Anything else?"), status.Fail,
			`(the reply goes on after char 5: " Anything else?")`},
		{"shorter", literal(KindEquals, "Done.", false), reply("Do"), status.Fail, `(the reply stops at char 2, before "ne.")`},
		{"joined messages", literal(KindEquals, "a\nb", false), scopeOf(trace.Turn{Texts: []string{"a", "b"}}), status.Pass, ""},
	})
	runExact(t, []exactCase{
		{"differs", literal(KindEquals, "Done.", false), reply("Done!"), status.Fail,
			`assistant text in turn[0] is "Done!", expected "Done." (they first differ at char 4: "!" vs ".")`},
		{"empty", literal(KindEquals, "Done.", false), scopeOf(turnOf("")), status.Fail, `assistant text in turn[0] is empty, expected "Done."`},
	})
}
