// Package selection decides which tests of a suite run: the --run and --tag
// filters, and --shard, which splits a suite into parts that separate CI
// jobs run and `ananke merge` puts back together.
package selection

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// Filter keeps the tests a user asked for.
type Filter struct {
	// Run matches a test's id or name (unanchored RE2); nil keeps all.
	Run *regexp.Regexp
	// Include keeps tests with at least one of these tags (none: all);
	// Exclude drops tests with any of these.
	Include, Exclude []string
}

// ParseTags reads --tag values: each is a tag, or "!tag" to exclude it; a
// value may hold several, separated by commas.
func ParseTags(values []string) (include, exclude []string, err error) {
	for _, v := range values {
		for _, tag := range strings.Split(v, ",") {
			tag = strings.TrimSpace(tag)
			name, not := strings.CutPrefix(tag, "!")
			name = strings.TrimSpace(name)
			if name == "" {
				return nil, nil, fmt.Errorf("--tag %q: want a tag, or !tag to exclude it", v)
			}
			if not {
				exclude = append(exclude, name)
			} else {
				include = append(include, name)
			}
		}
	}
	return include, exclude, nil
}

// IsZero reports whether the filter keeps every test.
func (f Filter) IsZero() bool { return f.Run == nil && len(f.Include) == 0 && len(f.Exclude) == 0 }

// Keep reports whether test t passes the filter.
func (f Filter) Keep(t *spec.Test) bool {
	if f.Run != nil && !f.Run.MatchString(t.ID) && !f.Run.MatchString(t.Name.Value) {
		return false
	}
	has := func(tag string) bool {
		return slices.ContainsFunc(t.Tags, func(n vars.Name) bool { return n.Value == tag })
	}
	if slices.ContainsFunc(f.Exclude, has) {
		return false
	}
	return len(f.Include) == 0 || slices.ContainsFunc(f.Include, has)
}

// Apply returns the tests that pass the filter, in order.
func (f Filter) Apply(tests []*spec.Test) []*spec.Test {
	var out []*spec.Test
	for _, t := range tests {
		if f.Keep(t) {
			out = append(out, t)
		}
	}
	return out
}

// String describes the filter for messages: `--run "refund" --tag smoke`.
func (f Filter) String() string {
	var parts []string
	if f.Run != nil {
		parts = append(parts, fmt.Sprintf("--run %q", f.Run.String()))
	}
	for _, t := range f.Include {
		parts = append(parts, "--tag "+t)
	}
	for _, t := range f.Exclude {
		parts = append(parts, "--tag '!"+t+"'")
	}
	return strings.Join(parts, " ")
}
