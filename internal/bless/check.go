package bless

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/snapshot"
)

// Kind is a kind of inferred check: what --skip names and the review asks
// about.
type Kind string

// The kinds, in the order they are inferred (Inferrers).
const (
	// Require: each tool the agent called in a turn is required there
	// (tools.require).
	Require Kind = "require"
	// Args: a call's identifier arguments are required as sent
	// (tools.require with args_match).
	Args Kind = "args"
	// Order: the tools of a turn are called in the order they were
	// (tools.order), when there are two or more.
	Order Kind = "order"
	// Text: an identifier a tool result gave and the reply repeats is
	// required in the reply (text.contains).
	Text Kind = "text"
	// Forbid: a tool the agent had at hand but never called stays
	// uncalled (tools.forbid, on the whole test).
	Forbid Kind = "forbid"
	// Snapshot: the whole test's trajectory is stored as its snapshot
	// (snapshot: true, its entry beside the blessed file:
	// docs/snapshots.md).
	Snapshot Kind = "snapshot"
)

// Kinds lists every kind, in the order of Inferrers.
func Kinds() []Kind {
	out := make([]Kind, len(Inferrers))
	for i, in := range Inferrers {
		out[i] = in.Kind
	}
	return out
}

// ParseKinds reads a comma-separated list of kinds (--skip).
func ParseKinds(s string) ([]Kind, error) {
	var out []Kind
	for _, f := range strings.Split(s, ",") {
		k := Kind(strings.TrimSpace(f))
		if k == "" {
			continue
		}
		if !slices.Contains(Kinds(), k) {
			return nil, fmt.Errorf("unknown kind %q (kinds: %s)", k, joinKinds(Kinds()))
		}
		out = append(out, k)
	}
	return out, nil
}

func joinKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// Whole is the Turn of a check on the whole test.
const Whole = -1

// Check is one inferred check: where it is written, its value, and what
// it was inferred from.
type Check struct {
	Kind Kind
	// Turn is the turn whose assert block holds it, or Whole.
	Turn int
	// Section is where in the assert block it goes ("tools", "require");
	// List says its last key holds a list the check adds Value to, rather
	// than Value itself.
	Section []string
	List    bool
	Value   *yaml.Node
	// Why says what the check was inferred from; it is written as the
	// check's comment, "inferred: " and Why.
	Why string
	// Tool is the tool a tools.require entry names (superseded bare
	// entries are left out when written: Render).
	Tool string
	// Snap is a snapshot check's snapshot: the entry to store beside the
	// blessed file (Output.Snapshots).
	Snap *snapshot.Snapshot
}

// Where is the check's place, "turn[0] tools.require" or "test tools.forbid".
func (c Check) Where() string {
	scope := "test"
	if c.Turn != Whole {
		scope = fmt.Sprintf("turn[%d]", c.Turn)
	}
	return scope + " " + strings.Join(c.Section, ".")
}

// Show is the check's value on one line, as YAML's flow style writes it.
func (c Check) Show() string {
	return flowText(c.Value)
}

// key identifies a check across attempts: the same kind, place and value.
func (c Check) key() string {
	return string(c.Kind) + "\x00" + c.Where() + "\x00" + c.Show()
}

// Keep returns the checks whose kind is not in skip.
func Keep(checks []Check, skip []Kind) []Check {
	var out []Check
	for _, c := range checks {
		if !slices.Contains(skip, c.Kind) {
			out = append(out, c)
		}
	}
	return out
}
