package bless

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ananke/action/internal/trace"
)

// maxTexts bounds the text checks of one scope.
const maxTexts = 5

// token is a run of characters an identifier may hold, ending on a
// letter or digit.
var token = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9_\-./:#@%+]*[A-Za-z0-9]`) })

// inferText: an identifier a tool result gave and the reply repeats is
// required in the reply. The reply's wording is the model's and changes;
// an id passed on from a tool is a fact that must not.
func inferText(_ *Conversation, s trace.Scope, turn int) []Check {
	text := s.Text()
	if text == "" {
		return nil
	}
	results := resultsSoFar(s)
	var out []Check
	var seen []string
	for _, tok := range token().FindAllString(text, -1) {
		if len(out) == maxTexts {
			break
		}
		if slices.Contains(seen, tok) || !Identifier("", tok, true) {
			continue
		}
		seen = append(seen, tok)
		i := slices.IndexFunc(results, func(r toolResult) bool { return strings.Contains(r.content, tok) })
		if i < 0 {
			continue
		}
		out = append(out, Check{Kind: Text, Turn: turn, Section: []string{"text", "contains"}, List: true, Value: quoted(literal(tok)),
			Why: "the reply " + in(turn) + " repeats " + tok + " from " + results[i].tool + "'s result"})
	}
	return out
}

type toolResult struct{ tool, content string }

// resultsSoFar are the results of the calls of the scope and of the turns
// before it, in order.
func resultsSoFar(s trace.Scope) []toolResult {
	var out []toolResult
	for _, t := range slices.Concat(s.Prior, s.Turns) {
		for _, c := range t.ToolCalls {
			if c.Result != nil && c.Name != trace.ListToolsCall {
				out = append(out, toolResult{c.Name, c.Result.Content})
			}
		}
	}
	return out
}

// listed are the tools a tool listing in the scope named (an MCP
// tools/list result: {"tools": [{"name": …}]}).
func listed(s trace.Scope) []string {
	var out []string
	for _, c := range s.ToolCalls() {
		if c.Name != trace.ListToolsCall || c.Result == nil {
			continue
		}
		var r struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if json.Unmarshal([]byte(c.Result.Content), &r) == nil {
			for _, t := range r.Tools {
				out = append(out, t.Name)
			}
		}
	}
	return out
}
