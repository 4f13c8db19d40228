package spec

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// The quarantine list (docs/history.md#quarantine): tests that still run
// and report but never decide the run's verdict, each with a reason and an
// optional expiry date. Entries are written in the config's quarantine: and
// in the file its quarantine_file: names (the config's first); an entry
// past its date is a problem of the files, as a typo is, so that a
// quarantine cannot outlive its excuse unnoticed.

// Quarantine is one entry of the quarantine list.
type Quarantine struct {
	// Pos is where the entry is written.
	Pos diag.Pos
	// Test is a test id, or a glob over test ids: * matches within a
	// path segment, ** across them (as the config's tests: globs).
	Test    string
	TestPos diag.Pos
	// Reason says why the test is quarantined; required.
	Reason string
	// Until is the last day the entry holds, YYYY-MM-DD in UTC ("": no
	// expiry); UntilPos is where it is written.
	Until    string
	UntilPos diag.Pos
	// Owner and Issue say who answers for the test and where its fix is
	// tracked (free text, e.g. "@payments" and a URL); optional.
	Owner, Issue string
}

// DateLayout is how quarantine dates are written and compared.
const DateLayout = "2006-01-02"

var (
	quarantineFields     = []string{"test", "reason", "until", "owner", "issue"}
	quarantineFileFields = []string{"quarantine"}
)

// Matches reports whether the entry names the test id: the id itself, or a
// glob that matches it.
func (q *Quarantine) Matches(id string) bool {
	if q.Test == id {
		return true
	}
	ok, err := doublestar.Match(q.Test, id)
	return err == nil && ok
}

// Expired reports whether the entry's date has passed on today (UTC): an
// entry holds through its until day.
func (q *Quarantine) Expired(today time.Time) bool {
	return q.Until != "" && !today.IsZero() && q.Until < today.UTC().Format(DateLayout)
}

// QuarantineFor returns the entry that quarantines the test id — one that
// names it exactly, else the first glob that matches it — or nil.
func (c *Config) QuarantineFor(id string) *Quarantine {
	for _, q := range c.Quarantine {
		if q.Test == id {
			return q
		}
	}
	for _, q := range c.Quarantine {
		if q.Matches(id) {
			return q
		}
	}
	return nil
}

// quarantine reads the config's quarantine: list and the file its
// quarantine_file: names, relative to the config.
func (l *loader) quarantine(f map[string]decode.Pair, c *Config) {
	if p, ok := f["quarantine"]; ok {
		c.Quarantine = l.quarantineList(p.Val, "quarantine")
	}
	p, ok := f["quarantine_file"]
	if !ok {
		return
	}
	name, ok := l.Name(p.Val, "quarantine_file")
	if !ok {
		return
	}
	c.QuarantineFile = name.Value
	path := filepath.Join(filepath.Dir(l.File), filepath.FromSlash(name.Value))
	data, err := readFile(path, maxFileSize)
	if err != nil {
		l.Errorf(l.DerefQuiet(p.Val), "quarantine_file %s: %v", name.Value, err)
		return
	}
	fl := newLoader(path, l.Diags)
	doc := fl.ParseBytes(data)
	if doc == nil {
		return
	}
	ff, ok := fl.Fields(doc, "quarantine file", quarantineFileFields)
	if !ok {
		return
	}
	fl.Require(doc, ff, "quarantine file", "quarantine")
	if q, ok := ff["quarantine"]; ok {
		c.Quarantine = append(c.Quarantine, fl.quarantineList(q.Val, "quarantine")...)
	}
}

// quarantineList reads a list of quarantine entries; the same test written
// twice is a problem at the second.
func (l *loader) quarantineList(n *yaml.Node, what string) []*Quarantine {
	items, ok := l.List(n, what)
	if !ok {
		return nil
	}
	var out []*Quarantine
	for i, item := range items {
		if q := l.quarantineEntry(item, decode.Index(what, i)); q != nil {
			out = append(out, q)
		}
	}
	return out
}

func (l *loader) quarantineEntry(n *yaml.Node, what string) *Quarantine {
	f, ok := l.Fields(n, what, quarantineFields)
	if !ok {
		return nil
	}
	q := &Quarantine{Pos: l.Pos(l.DerefQuiet(n))}
	l.Require(n, f, what, "test", "reason")
	valid := true
	if p, ok := f["test"]; ok {
		name, ok := l.Name(p.Val, what+".test")
		switch {
		case !ok:
			valid = false
		case !doublestar.ValidatePattern(name.Value):
			l.Errorf(l.DerefQuiet(p.Val), "%s.test %q is not a valid glob", what, name.Value)
			valid = false
		}
		q.Test, q.TestPos = name.Value, name.Pos
	}
	if p, ok := f["reason"]; ok {
		s, node, ok := l.Text(p.Val, what+".reason")
		if ok && strings.TrimSpace(s) == "" {
			l.Errorf(node, "%s.reason must say why the test is quarantined", what)
		}
		q.Reason = strings.TrimSpace(s)
	}
	if p, ok := f["until"]; ok {
		q.Until, q.UntilPos = l.date(p.Val, what+".until")
	}
	if p, ok := f["owner"]; ok {
		q.Owner, _, _ = l.Text(p.Val, what+".owner")
	}
	if p, ok := f["issue"]; ok {
		q.Issue, _, _ = l.Text(p.Val, what+".issue")
	}
	if !valid || q.Test == "" {
		return nil
	}
	return q
}

// date reads a calendar date, YYYY-MM-DD (YAML reads an unquoted one as a
// timestamp; its text is what counts).
func (l *loader) date(n *yaml.Node, what string) (string, diag.Pos) {
	s, node, ok := l.Text(n, what)
	if !ok {
		return "", diag.Pos{}
	}
	if _, err := time.Parse(DateLayout, s); err != nil {
		l.Errorf(node, "%s %q is not a date of the form YYYY-MM-DD", what, s)
		return "", diag.Pos{}
	}
	return s, l.Pos(node)
}

// checkQuarantine reports an entry whose date has passed on today (a
// problem: fix the test or move the date) and a test written in two
// entries.
func checkQuarantine(cfg *Config, today time.Time, diags *diag.Diagnostics) {
	seen := map[string]diag.Pos{}
	for _, q := range cfg.Quarantine {
		if first, dup := seen[q.Test]; dup {
			where := fmt.Sprintf("line %d", first.Line)
			if first.File != q.TestPos.File {
				where = fmt.Sprintf("%s:%d", first.File, first.Line)
			}
			diags.Add(q.TestPos, "quarantine: %q is quarantined already (first at %s)", q.Test, where)
		} else {
			seen[q.Test] = q.TestPos
		}
		if q.Expired(today) {
			diags.Add(q.UntilPos, "quarantine of %q expired on %s (today is %s): fix the test and remove the entry, or move until: later",
				q.Test, q.Until, today.UTC().Format(DateLayout))
		}
	}
}

// markQuarantined gives each test its entry, and returns a warning for
// each entry that matches no test when the suite is the config's whole
// suite (whole: no paths or message chose part of it).
func markQuarantined(cfg *Config, tests []*Test, whole bool) diag.Diagnostics {
	for _, t := range tests {
		t.Quarantine = cfg.QuarantineFor(t.ID)
	}
	if !whole {
		return nil
	}
	var warnings diag.Diagnostics
	for _, q := range cfg.Quarantine {
		if !slices.ContainsFunc(tests, func(t *Test) bool { return q.Matches(t.ID) }) {
			warnings.Add(q.TestPos, "quarantine: %q matches no test; remove the entry", q.Test)
		}
	}
	return warnings
}

// quarantineEntrySchema is the published schema of one quarantine entry.
func quarantineEntrySchema() decode.Obj {
	return decode.Object("A quarantined test: it runs and reports, but never fails the run (docs/history.md#quarantine).", quarantineFields, decode.Obj{
		"test":   decode.Obj{"type": "string", "minLength": 1, "description": "The test's id, or a glob over test ids (* within a path segment, ** across them)."},
		"reason": decode.Obj{"type": "string", "minLength": 1, "description": "Why the test is quarantined; shown wherever the test is."},
		"until":  decode.Obj{"type": "string", "format": "date", "description": "The last day the entry holds (YYYY-MM-DD, UTC); after it, validate and run report the entry as a problem."},
		"owner":  decode.Str("Who answers for the test, e.g. @payments-team."),
		"issue":  decode.Str("Where its fix is tracked, e.g. an issue's URL."),
	}, "test", "reason")
}

// quarantineListSchema is the schema of a list of quarantine entries.
func quarantineListSchema() decode.Obj {
	return decode.List(quarantineEntrySchema(), "Tests that run and report but never fail the run, each with a reason and an optional expiry date (docs/history.md#quarantine).")
}

// quarantineFileSchema is the published schema of the file quarantine_file
// names.
func quarantineFileSchema() decode.Obj {
	root := decode.Object("", quarantineFileFields, decode.Obj{"quarantine": quarantineListSchema()}, "quarantine")
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaBaseURL + SchemaFile("quarantine")
	root["title"] = "Ananke quarantine list (the file the config's quarantine_file names)"
	return root
}
