package snapshot

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Text says what a snapshot keeps of the agent's replies.
type Text string

// Text modes (docs/snapshots.md).
const (
	// TextNone keeps no text: the trajectory alone (the default).
	TextNone Text = "none"
	// TextStructure keeps the shape of each reply — its markdown headings,
	// lists, code blocks, tables and paragraphs — not its words.
	TextStructure Text = "structure"
	// TextExact keeps each reply's words, whitespace normalised.
	TextExact Text = "exact"
)

// TextModes lists the text modes, as written.
var TextModes = []string{string(TextNone), string(TextStructure), string(TextExact)}

// Rules say what a snapshot keeps and how it is normalised: the config's
// snapshots: section, extended by each snapshot assertion's own (Extend).
// The zero Rules keep no text and apply the default normalisation alone.
type Rules struct {
	// Text is what is kept of the replies ("": unset, TextNone).
	Text Text
	// Ignore are argument paths whose values are stored as <ignored>.
	Ignore []Ignore
	// Replace are replacements applied to every string, in order, before
	// the default placeholders.
	Replace []Replace
	// Tolerance is how far two numbers may be apart and still compare
	// equal (absolute; nil: unset, 0).
	Tolerance *float64
}

// Replace is a replacement: every match of Pattern in a string becomes
// With, which may name the pattern's groups ($1, ${name}).
type Replace struct {
	Pattern *regexp.Regexp
	With    string
}

// Extend returns r with more's settings over it: more's text and
// tolerance when set, r's ignores and replacements followed by more's.
func (r Rules) Extend(more Rules) Rules {
	out := Rules{Text: r.Text, Tolerance: r.Tolerance,
		Ignore: slices.Concat(r.Ignore, more.Ignore), Replace: slices.Concat(r.Replace, more.Replace)}
	if more.Text != "" {
		out.Text = more.Text
	}
	if more.Tolerance != nil {
		out.Tolerance = more.Tolerance
	}
	return out
}

// TextMode is the rules' text mode (TextNone when unset).
func (r Rules) TextMode() Text {
	if r.Text == "" {
		return TextNone
	}
	return r.Text
}

// Tol is the rules' tolerance (0 when unset).
func (r Rules) Tol() float64 {
	if r.Tolerance == nil {
		return 0
	}
	return *r.Tolerance
}

// Ignore is an argument path whose value a snapshot stores as <ignored>:
// TOOL.path, or *.path for every tool; the path is member names joined by
// dots, each name (or *, any member) followed by any number of [N] (an
// element) or [*] (every element): "search.filters.since",
// "*.request_id", "create_order.items[*].id".
type Ignore struct {
	// Raw is the path as written.
	Raw string
	// Tool is the tool it applies to, "*" for every tool.
	Tool  string
	steps []step
}

// step is one selector of an ignore path: a member (name, or "*" for
// every member), or an element (index, or every element).
type step struct {
	member string
	index  int // -1: every element
	elem   bool
}

// ParseIgnore reads an ignore path, TOOL.path or *.path.
func ParseIgnore(s string) (Ignore, error) {
	tool, path, ok := strings.Cut(s, ".")
	if !ok || tool == "" || path == "" {
		return Ignore{}, fmt.Errorf("%q is not TOOL.path or *.path (e.g. search_orders.request_id, *.trace.id)", s)
	}
	if strings.ContainsAny(tool, "[]") {
		return Ignore{}, fmt.Errorf("%q: the tool name %q cannot hold [ or ]", s, tool)
	}
	in := Ignore{Raw: s, Tool: tool}
	for seg := range strings.SplitSeq(path, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		if name == "" {
			return Ignore{}, fmt.Errorf("%q: an empty member name (write name, * or name[*])", s)
		}
		in.steps = append(in.steps, step{member: name})
		if rest == "" && !strings.Contains(seg, "[") {
			continue
		}
		rest = "[" + rest
		for rest != "" {
			end := strings.IndexByte(rest, ']')
			if rest[0] != '[' || end < 0 {
				return Ignore{}, fmt.Errorf("%q: %q is not [N] or [*]", s, rest)
			}
			sel := rest[1:end]
			rest = rest[end+1:]
			if sel == "*" {
				in.steps = append(in.steps, step{elem: true, index: -1})
				continue
			}
			n, err := strconv.Atoi(sel)
			if err != nil || n < 0 {
				return Ignore{}, fmt.Errorf("%q: [%s] is not an index from 0 or [*]", s, sel)
			}
			in.steps = append(in.steps, step{elem: true, index: n})
		}
	}
	return in, nil
}

// applies reports whether the path concerns calls to tool.
func (in Ignore) applies(tool string) bool { return in.Tool == "*" || in.Tool == tool }

// apply replaces every value the path selects in v with the ignored
// placeholder, returning v.
func (in Ignore) apply(v any) any { return ignoreAt(v, in.steps) }

func ignoreAt(v any, steps []step) any {
	if len(steps) == 0 {
		return Ignored
	}
	st := steps[0]
	switch x := v.(type) {
	case map[string]any:
		if st.elem {
			return v
		}
		for k, mv := range x {
			if st.member == "*" || st.member == k {
				x[k] = ignoreAt(mv, steps[1:])
			}
		}
	case []any:
		if !st.elem {
			return v
		}
		for i := range x {
			if st.index < 0 || st.index == i {
				x[i] = ignoreAt(x[i], steps[1:])
			}
		}
	}
	return v
}
