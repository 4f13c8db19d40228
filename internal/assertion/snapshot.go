package assertion

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/vars"
)

// SnapshotCheck is a snapshot assertion: the scope's trajectory — its
// tool calls, grouped by turn, and its replies when Rules keep them —
// compared with the snapshot stored beside its test file
// (docs/snapshots.md). Its rules extend the config's snapshots: section.
// Its comparison reads and writes files, so the engine makes it through
// its Snapshots seam; evaluated here, without one, it is an error, never
// a pass.
type SnapshotCheck struct {
	Pos   diag.Pos
	Rules snapshot.Rules
}

// snapshotFields are the keys of a snapshot assertion and of the config's
// snapshots: section.
var snapshotFields = []string{"text", "ignore", "replace", "tolerance"}

var replaceFields = []string{"pattern", "with"}

func readSnapshot(l *reader, n *yaml.Node, what string) []Item {
	d := l.Deref(n)
	if d == nil {
		return nil
	}
	sc := &SnapshotCheck{Pos: l.Pos(d)}
	if d.Kind == yaml.ScalarNode && d.ShortTag() == "!!bool" {
		if v, _ := l.Boolean(d, what); !v {
			l.Errorf(d, "%s: false has nothing to disable; remove it", what)
			return nil
		}
		return []Item{{Pos: sc.Pos, Payload: sc}}
	}
	rules, ok := ReadSnapshotRules(l.Decoder, d, what)
	if !ok {
		return nil
	}
	sc.Rules = rules
	return []Item{{Pos: sc.Pos, Payload: sc}}
}

// ReadSnapshotRules reads snapshot rules written at what: a snapshot
// assertion's mapping, or the config's snapshots: section. It reports
// false, having reported why, when n is not a mapping of them.
func ReadSnapshotRules(d *decode.Decoder, n *yaml.Node, what string) (snapshot.Rules, bool) {
	var r snapshot.Rules
	f, ok := d.Fields(n, what, snapshotFields)
	if !ok {
		return r, false
	}
	if p, ok := f["text"]; ok {
		if v, node, ok := d.Text(p.Val, what+".text"); ok {
			if !slices.Contains(snapshot.TextModes, v) {
				d.Errorf(node, "%s.text %q: want %s%s", what, v, strings.Join(snapshot.TextModes, ", "), decode.DidYouMean(v, snapshot.TextModes))
			} else {
				r.Text = snapshot.Text(v)
			}
		}
	}
	if p, ok := f["ignore"]; ok {
		items, _ := d.OneOrList(p.Val, what+".ignore")
		for i, item := range items {
			v, node, ok := d.Text(item, decode.Index(what+".ignore", i))
			if !ok {
				continue
			}
			in, err := snapshot.ParseIgnore(v)
			if err != nil {
				d.Errorf(node, "%s: %v", decode.Index(what+".ignore", i), err)
				continue
			}
			r.Ignore = append(r.Ignore, in)
		}
	}
	if p, ok := f["replace"]; ok {
		items, _ := d.List(p.Val, what+".replace")
		for i, item := range items {
			if rep, ok := readReplace(d, item, decode.Index(what+".replace", i)); ok {
				r.Replace = append(r.Replace, rep)
			}
		}
	}
	if p, ok := f["tolerance"]; ok {
		if v, node, ok := d.Number(p.Val, what+".tolerance"); ok {
			if v < 0 {
				d.Errorf(node, "%s.tolerance must be 0 or more, got %s", what, node.Value)
			} else {
				r.Tolerance = &v
			}
		}
	}
	return r, true
}

// readReplace reads one replacement: {pattern, with}. Its pattern is a
// plain regex: a snapshot's rules are the same for every attempt, so they
// reference no variables.
func readReplace(d *decode.Decoder, n *yaml.Node, what string) (snapshot.Replace, bool) {
	var rep snapshot.Replace
	f, ok := d.Fields(n, what, replaceFields)
	if !ok {
		return rep, false
	}
	d.Require(n, f, what, "pattern", "with")
	p, ok := f["pattern"]
	if !ok {
		return rep, false
	}
	src, node, ok := d.Text(p.Val, what+".pattern")
	if !ok {
		return rep, false
	}
	if t, diags := vars.ParseTemplate(src, vars.OffsetPos(d.File, node)); len(diags) == 0 && len(t.Refs()) > 0 {
		d.Errorf(node, "%s.pattern cannot reference variables: a snapshot is normalised alike in every run", what)
		return rep, false
	}
	re, err := regexp.Compile(src)
	if err != nil {
		d.Errorf(node, "%s.pattern: invalid regex %q: %s", what, src, vars.RegexError(err))
		return rep, false
	}
	rep.Pattern = re
	if w, ok := f["with"]; ok {
		if rep.With, _, ok = d.Text(w.Val, what+".with"); !ok {
			return rep, false
		}
	}
	return rep, true
}

// Refs implements Payload: a snapshot's rules reference no variables.
func (sc *SnapshotCheck) Refs() []vars.Ref { return nil }

// Bind implements Payload.
func (sc *SnapshotCheck) Bind(*vars.Vars) (Payload, error) { return sc, nil }

// Snapshot returns c's snapshot assertion, nil when c is not one.
func (c Check) Snapshot() *SnapshotCheck {
	sc, _ := c.Payload.(*SnapshotCheck)
	return sc
}

// snapshotSchema is a snapshot assertion's schema: true, or its rules.
func snapshotSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"const": true}, SnapshotRulesSchema("")},
		"description": "Compare the scope's trajectory — its tool calls in order, grouped by turn, with their arguments — with the snapshot stored in __snapshots__ beside the test file (docs/snapshots.md). true: with the config's snapshots: rules; a mapping extends them."}
}

// SnapshotRulesSchema is the schema of snapshot rules: a snapshot
// assertion's mapping, and the config's snapshots: section.
func SnapshotRulesSchema(desc string) decode.Obj {
	return decode.Object(desc, snapshotFields, decode.Obj{
		"text": decode.Obj{"enum": snapshot.TextModes,
			"description": "What is kept of the replies: none (default), structure (their markdown headings, lists, code blocks, tables and paragraphs, not their words) or exact (their words, whitespace normalised)."},
		"ignore": decode.OneOrMany(decode.Obj{"type": "string", "pattern": `^[^.\[\]]+\..+$`,
			"description": "TOOL.path or *.path: an argument whose value is stored as <ignored>, e.g. search.request_id, *.items[*].id."}),
		"replace": decode.List(decode.Object("", replaceFields, decode.Obj{
			"pattern": decode.Obj{"type": "string", "format": "regex", "description": "Go RE2 regular expression, applied to every string; no ${…} references."},
			"with":    decode.Str("What each match becomes; $1 or ${name} insert its groups."),
		}, "pattern", "with"), "Replacements applied to every string of the snapshot, in order, before the default placeholders."),
		"tolerance": decode.Obj{"type": "number", "minimum": 0, "description": "How far apart two numbers may be and still compare equal (absolute; default 0)."},
	})
}

// SnapshotsUnavailable is a snapshot check's message when the run has no
// snapshots to compare it with.
const SnapshotsUnavailable = "snapshots are not available in this run"

// unavailableSnapshot is a snapshot check evaluated without the engine's
// snapshots: what it expects, and an error.
func unavailableSnapshot(r *Result, sc *SnapshotCheck) {
	r.Expected = ExpectSnapshot(sc.Rules)
	r.set(status.Error, "%s", SnapshotsUnavailable)
}

// ExpectSnapshot says what a snapshot check with rules expects.
func ExpectSnapshot(rules snapshot.Rules) string {
	e := "the trajectory matches its stored snapshot"
	switch rules.TextMode() {
	case snapshot.TextStructure:
		e += ", with the replies' structure"
	case snapshot.TextExact:
		e += ", with the replies' words"
	}
	if len(rules.Ignore) > 0 {
		var paths []string
		for _, in := range rules.Ignore {
			paths = append(paths, in.Raw)
		}
		e += ", ignoring " + strings.Join(paths, ", ")
	}
	if n := len(rules.Replace); n > 0 {
		e += ", " + plural.Count(n, "replacement")
	}
	if t := rules.Tol(); t > 0 {
		e += fmt.Sprintf(", numbers within %g", t)
	}
	return e
}
