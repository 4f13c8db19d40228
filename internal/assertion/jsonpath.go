package assertion

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ohler55/ojg/jp"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// jsonPath checks the values c.Path selects in the reply's JSON (replyJSON,
// decoded by encoding/json). With exists: false it passes when the path
// selects nothing. Otherwise the path must select at least one value, and
// every value must pass each condition set: equals (want, compared as
// decoded JSON, so 89.5 equals 89.50), match (a regex over the value's
// text: strings as they are, other JSON compact) and type.
func jsonPath(r *Result, c *JSONPathCheck, want json.RawMessage, s trace.Scope) {
	vc := newValueCheck(want, c.Equals, c.Match, c.Type)
	absent := c.Exists != nil && !*c.Exists
	r.Expected = expectPath(c.Path, vc, absent, "the reply's JSON")
	doc := replyJSON(s.Text())
	var v any
	if err := json.Unmarshal([]byte(doc.text), &v); err != nil {
		notJSON(r, doc, err, s, c.Path+" cannot be checked")
		return
	}
	refs := textRefs(s)
	selectPath(r, c, vc, absent, v, doc, func(note, text string) Evidence {
		return Evidence{Note: note, Text: text, EventRefs: refs}
	})
}

// selectPath checks what c selects in v, the decoded JSON of doc, setting
// r's status, message, observation and evidence (made by ev).
func selectPath(r *Result, c *JSONPathCheck, vc valueCheck, absent bool, v any, doc replyDoc, ev func(note, text string) Evidence) {
	found := selectNodes(c.Expr, v)
	nodes := make([]any, len(found))
	for i, n := range found {
		nodes[i] = n.value
	}
	r.Observed = observedNodes(nodes)
	if len(nodes) > 0 {
		r.Evidence = []Evidence{ev(c.Path+" selects", shorten(compact(nodes), 400))}
	}
	switch {
	case absent && len(nodes) == 0:
		r.set(status.Pass, "%s selects nothing in %s", c.Path, doc.where)
	case absent:
		r.set(status.Fail, "%s selects %s in %s, expected nothing: %s", c.Path, plural.Count(len(nodes), "value"), doc.where, display(nodes[0]))
	case len(nodes) == 0:
		r.Evidence = []Evidence{ev(doc.where, shorten(doc.text, 400))}
		r.set(status.Fail, "%s selects nothing in %s", c.Path, doc.where)
	default:
		checkNodes(r, c.Path, doc.where, found, vc)
	}
}

// checkNodes fails r on the first node that fails vc, naming its own path
// when the user's path selected several.
func checkNodes(r *Result, path, where string, nodes []node, vc valueCheck) {
	for i, n := range nodes {
		why := vc.failure(n.value)
		switch {
		case why == "":
			continue
		case len(nodes) == 1:
			r.set(status.Fail, "%s is %s, %s", path, display(n.value), why)
		case n.path != "":
			r.set(status.Fail, "%s: %s is %s, %s", path, n.path, display(n.value), why)
		default:
			r.set(status.Fail, "%s is %s, %s (value %d of %d)", path, display(n.value), why, i+1, len(nodes))
		}
		return
	}
	msg := fmt.Sprintf("%s selects %s in %s", path, plural.Count(len(nodes), "value"), where)
	if d := vc.describe(); d != "" {
		each := "each"
		if len(nodes) == 1 {
			each = "which"
		}
		msg += ", " + each + " " + d
	}
	r.set(status.Pass, "%s", msg)
}

// node is one value a JSONPath selected, with its normalized path
// ("$.items[1].price"; "" when unknown).
type node struct {
	path  string
	value any
}

// selectNodes returns what expr selects in doc in a stable order. Objects
// are Go maps, so wildcards would visit keys in random order; the nodes are
// located and sorted by path instead (keys by name, indexes by number).
// Expressions Locate does not follow (the root itself) keep Get's result.
func selectNodes(expr jp.Expr, doc any) []node {
	vals := expr.Get(doc)
	locs := expr.Locate(doc, 0)
	out := make([]node, 0, len(vals))
	if len(locs) != len(vals) {
		for _, v := range vals {
			out = append(out, node{value: v})
		}
		slices.SortStableFunc(out, func(a, b node) int { return strings.Compare(compact(a.value), compact(b.value)) })
		return out
	}
	slices.SortFunc(locs, comparePaths)
	for _, l := range locs {
		out = append(out, node{path: l.String(), value: l.First(doc)})
	}
	return out
}

// comparePaths orders normalized paths fragment by fragment.
func comparePaths(a, b jp.Expr) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		var c int
		switch fa, fb := a[i], b[i]; {
		case isNth(fa) && isNth(fb):
			c = cmp.Compare(fa.(jp.Nth), fb.(jp.Nth))
		default:
			c = strings.Compare(jp.Expr{fa}.String(), jp.Expr{fb}.String())
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func isNth(f jp.Frag) bool {
	_, ok := f.(jp.Nth)
	return ok
}

// expectPath describes a json_path check on the JSON in ("the reply's
// JSON").
func expectPath(path string, vc valueCheck, absent bool, in string) string {
	if absent {
		return path + " selects nothing in " + in
	}
	e := path + " selects at least one value in " + in
	if d := vc.describe(); d != "" {
		e += ", each of which " + d
	}
	return e
}

// observedNodes lists the first few selected values.
func observedNodes(nodes []any) string {
	if len(nodes) == 0 {
		return "nothing selected"
	}
	var parts []string
	for i, n := range nodes {
		if i == maxReasons {
			parts = append(parts, fmt.Sprintf("%d more", len(nodes)-maxReasons))
			break
		}
		parts = append(parts, display(n))
	}
	return plural.Count(len(nodes), "value") + ": " + strings.Join(parts, ", ")
}
