package assertion

import (
	"encoding/json"
	"strings"

	"github.com/go-openapi/jsonpointer"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

var (
	stateFields    = []string{"equals", "match", "exists"}
	groundedFields = []string{"numbers", "urls", "ignore"}
)

// StateCheck is one state entry: the agent state after the scope (a
// STATE_SNAPSHOT with the deltas since applied) at Pointer must pass every
// condition set.
type StateCheck struct {
	Pos diag.Pos
	// Pointer is an RFC 6901 JSON Pointer ("/cart/total"; "" is the whole
	// state).
	Pointer string
	Ref     jsonpointer.Pointer
	// Equals is a JSON value (zero: unset); Match a regex over the value's
	// text (strings as they are, other JSON compact); Exists false requires
	// that nothing is there, true that something is.
	Equals vars.Value
	Match  *vars.Regex
	Exists *bool
	// Want is Equals as JSON, once bound (nil: unset, or not bound yet).
	Want json.RawMessage
}

// Grounded asks that what the assistant states comes from the test: every
// URL and every number that is not trivially small in its text appears in a
// tool result, a tool argument, a user message or the history.
type Grounded struct {
	Pos     diag.Pos
	Numbers bool
	URLs    bool
	// Ignore exempts the claims (a number as written, or a URL) it matches.
	Ignore []*vars.Regex
}

// state reads a mapping of JSON Pointer to conditions, keeping its order.
func (l *reader) state(n *yaml.Node, what string) []StateCheck {
	m := l.Deref(n)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "%s must be a mapping of JSON Pointer (/cart/total) to conditions, not %s", what, decode.KindName(m))
		return nil
	}
	var out []StateCheck
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := l.Deref(m.Content[i])
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode || (k.Value != "" && !strings.HasPrefix(k.Value, "/")) {
			l.Errorf(k, "%s: %q is not a JSON Pointer; write /cart/total (or \"\" for the whole state)", what, k.Value)
			continue
		}
		if seen[k.Value] {
			l.Errorf(k, "%s: %q is listed twice", what, k.Value)
			continue
		}
		seen[k.Value] = true
		ptr, err := jsonpointer.New(k.Value)
		if err != nil {
			l.Errorf(k, "%s: %q is not a JSON Pointer: %v", what, k.Value, err)
			continue
		}
		entry := what + "." + k.Value
		f, ok := l.Fields(m.Content[i+1], entry, stateFields)
		if !ok {
			continue
		}
		c := StateCheck{Pos: l.Pos(k), Pointer: k.Value, Ref: ptr}
		if p, ok := f["equals"]; ok {
			c.Equals, _ = l.Value(p.Val, entry+".equals")
		}
		c.Match = l.OptRegex(f, "match", entry)
		if p, ok := f["exists"]; ok {
			if v, ok := l.Boolean(p.Val, entry+".exists"); ok {
				c.Exists = &v
			}
		}
		l.conditions(m.Content[i+1], f, entry, c.Exists)
		out = append(out, c)
	}
	return out
}

// grounded reads `grounded: true` (numbers and URLs) or a mapping.
func (l *reader) grounded(n *yaml.Node, what string) *Grounded {
	d := l.Deref(n)
	if d == nil {
		return nil
	}
	g := &Grounded{Pos: l.Pos(d)}
	if d.Kind == yaml.ScalarNode && d.ShortTag() == "!!bool" {
		if v, _ := l.Boolean(d, what); !v {
			l.Errorf(d, "%s: false has nothing to disable; remove it", what)
			return nil
		}
		g.Numbers, g.URLs = true, true
		return g
	}
	f, ok := l.Fields(d, what, groundedFields)
	if !ok {
		return nil
	}
	if p, ok := f["numbers"]; ok {
		g.Numbers, _ = l.Boolean(p.Val, what+".numbers")
	}
	if p, ok := f["urls"]; ok {
		g.URLs, _ = l.Boolean(p.Val, what+".urls")
	}
	g.Ignore = l.Regexes(f, "ignore", what)
	if !g.Numbers && !g.URLs {
		l.Errorf(d, "%s checks nothing: set numbers: true, urls: true, or both (grounded: true)", what)
		return nil
	}
	return g
}

func readState(l *reader, n *yaml.Node, what string) []Item {
	var out []Item
	for _, c := range l.state(n, what) {
		out = append(out, Item{Pos: c.Pos, Payload: &c})
	}
	return out
}

func readGrounded(l *reader, n *yaml.Node, what string) []Item {
	if g := l.grounded(n, what); g != nil {
		return []Item{{Pos: g.Pos, Payload: g}}
	}
	return nil
}

// Refs implements Payload.
func (c *StateCheck) Refs() []vars.Ref { return valueRefs(c.Match, c.Equals) }

// Bind implements Payload: the match regex, and equals as JSON.
func (c *StateCheck) Bind(v *vars.Vars) (Payload, error) {
	b := *c
	var err error
	if b.Match, b.Want, err = bindValue(c.Match, c.Equals, v); err != nil {
		return nil, err
	}
	return &b, nil
}

// valueRefs are the references of a value check's match regex and equals
// value (state and text.json_path).
func valueRefs(match *vars.Regex, equals vars.Value) []vars.Ref {
	return append(regexRefs(match), equals.Refs()...)
}

// bindValue binds a value check's match regex, and its equals value as
// JSON (nil when unset).
func bindValue(match *vars.Regex, equals vars.Value, v *vars.Vars) (*vars.Regex, json.RawMessage, error) {
	m, err := bindOpt(match, v)
	if err != nil || equals.IsZero() {
		return m, nil, err
	}
	want, err := equals.Resolve(v)
	return m, want, err
}

// Refs implements Payload.
func (g *Grounded) Refs() []vars.Ref { return regexRefs(g.Ignore...) }

// Bind implements Payload.
func (g *Grounded) Bind(v *vars.Vars) (Payload, error) {
	b := *g
	b.Ignore = make([]*vars.Regex, len(g.Ignore))
	for i, re := range g.Ignore {
		var err error
		if b.Ignore[i], err = re.Bind(v); err != nil {
			return nil, err
		}
	}
	return &b, nil
}
