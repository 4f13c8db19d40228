package assertion

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// sourcesPhrase names what grounded accepts as a source, in messages.
const sourcesPhrase = "tool result, tool argument, user message or history"

// grounded passes when every claim in the scope's assistant text — every
// URL (g.URLs) and every number that is not trivially small (g.Numbers),
// as findClaims reads them — appears in what the test supplied so far
// (supportOf, compared by support.supports). A claim that one of g.Ignore's
// regexes matches, as written ("2026", "$5.99", the URL), is exempt. A
// failure lists each unsupported claim with its character offset in the
// scope's text.
func grounded(r *Result, g *Grounded, s trace.Scope) {
	r.Expected = expectGrounded(g)
	text := s.Text()
	reply := replyName(s)
	var bad []claim
	checked, exempt := 0, 0
	sup := supportOf(s)
	for _, c := range findClaims(text, g.Numbers, g.URLs) {
		if ignored(g.Ignore, c.Text) {
			exempt++
			continue
		}
		checked++
		if !sup.supports(c) {
			bad = append(bad, c)
		}
	}
	r.Observed = fmt.Sprintf("%s, %d unsupported", plural.Count(checked, "claim"), len(bad))
	if exempt > 0 {
		r.Observed += fmt.Sprintf(", %d ignored", exempt)
	}
	if len(bad) == 0 {
		if checked == 0 {
			r.set(status.Pass, "no numbers or URLs to check in %s", reply)
			return
		}
		r.set(status.Pass, "all %s in %s appear in a %s", plural.Count(checked, "claim"), reply, sourcesPhrase)
		return
	}
	refs := textRefs(s)
	var parts []string
	for i, c := range bad {
		if i < maxEvidence {
			r.Evidence = append(r.Evidence, Evidence{Note: unsupportedNote(c, reply), Text: around(text, []int{c.Start, c.End}), EventRefs: refs})
		}
		if i < maxClaimsListed {
			parts = append(parts, fmt.Sprintf("%s (char %d)", claimText(c), c.Char))
		}
	}
	if len(bad) > maxClaimsListed {
		parts = append(parts, fmt.Sprintf("%d more", len(bad)-maxClaimsListed))
	}
	verb := "appear"
	if len(bad) == 1 {
		verb = "appears"
	}
	r.set(status.Fail, "%s in %s %s in no %s: %s", plural.Count(len(bad), "claim"), reply, verb, sourcesPhrase, strings.Join(parts, ", "))
}

// maxClaimsListed bounds the unsupported claims a message names; the
// evidence has each (up to maxEvidence).
const maxClaimsListed = 5

func expectGrounded(g *Grounded) string {
	var what []string
	if g.Numbers {
		what = append(what, fmt.Sprintf("every number (except whole numbers 0 to %d)", largestTrivial))
	}
	if g.URLs {
		what = append(what, "every URL")
	}
	e := strings.Join(what, " and ") + " in the reply appears in a " + sourcesPhrase
	if len(g.Ignore) > 0 {
		var res []string
		for _, re := range g.Ignore {
			res = append(res, fmt.Sprintf("`%s`", re))
		}
		e += ", ignoring claims matching " + strings.Join(res, ", ")
	}
	return e
}

func ignored(res []*vars.Regex, claim string) bool {
	for _, re := range res {
		if matches(re, claim) {
			return true
		}
	}
	return false
}

// replyName names the scope's text in messages.
func replyName(s trace.Scope) string {
	if s.Name == "test" {
		return "the test's replies"
	}
	return s.Name + "'s reply"
}

// claimText shows a claim in a message: numbers quoted as written, URLs
// bare.
func claimText(c claim) string {
	if c.URL {
		return c.Text
	}
	return strconv.Quote(c.Text)
}

func unsupportedNote(c claim, reply string) string {
	if c.URL {
		return fmt.Sprintf("unsupported URL %s at char %d of %s", c.Text, c.Char, reply)
	}
	value := ""
	if c.Value != c.Text {
		value = " (" + c.Value + ")"
	}
	return fmt.Sprintf("unsupported number %q%s at char %d of %s", c.Text, value, c.Char, reply)
}
