package replay

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/report"
)

// maxDiffs bounds the differences an error lists.
const maxDiffs = 10

// idKeys name the values that are ids made anew by every run: they are
// compared by how they are used, not by value.
var idKeys = map[string]bool{"threadId": true, "runId": true, "parentRunId": true, "id": true, "messageId": true, "toolCallId": true}

// Diff is one difference between a recorded request and the one sent.
type Diff struct {
	Path     string
	Recorded string // compact JSON, or "(none)"
	Sent     string
}

func (d Diff) String() string {
	return fmt.Sprintf("%s: recorded %s, sent %s", d.Path, d.Recorded, d.Sent)
}

// Compare lists how sent differs from recorded, path by path. Ids (values
// of idKeys) match when they are used the same way: ids maps each recorded
// id to the one sent, and Compare adds to it. A recorded string with the
// mask in it matches any value in the mask's place (the secret was masked
// when it was recorded).
func Compare(recorded, sent json.RawMessage, ids map[string]string) []Diff {
	var r, s any
	if json.Unmarshal(recorded, &r) != nil || json.Unmarshal(sent, &s) != nil {
		if string(recorded) == string(sent) {
			return nil
		}
		return []Diff{{Path: "the body", Recorded: short(string(recorded)), Sent: short(string(sent))}}
	}
	c := comparer{ids: ids}
	c.value("", r, s, false)
	return c.diffs
}

type comparer struct {
	ids   map[string]string
	diffs []Diff
}

func (c *comparer) add(path string, r, s any) {
	c.diffs = append(c.diffs, Diff{Path: cmpPath(path), Recorded: show(r), Sent: show(s)})
}

func (c *comparer) value(path string, r, s any, isID bool) {
	switch rv := r.(type) {
	case map[string]any:
		sv, ok := s.(map[string]any)
		if !ok {
			c.add(path, r, s)
			return
		}
		keys := make([]string, 0, len(rv)+len(sv))
		for k := range rv {
			keys = append(keys, k)
		}
		for k := range sv {
			if _, ok := rv[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := path + "." + k
			a, inR := rv[k]
			b, inS := sv[k]
			switch {
			case !inR:
				c.add(p, missing{}, b)
			case !inS:
				c.add(p, a, missing{})
			default:
				c.value(p, a, b, idKeys[k])
			}
		}
	case []any:
		sv, ok := s.([]any)
		if !ok {
			c.add(path, r, s)
			return
		}
		for i := range max(len(rv), len(sv)) {
			p := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(rv):
				c.add(p, missing{}, sv[i])
			case i >= len(sv):
				c.add(p, rv[i], missing{})
			default:
				c.value(p, rv[i], sv[i], false)
			}
		}
	case string:
		sv, ok := s.(string)
		if !ok {
			c.add(path, r, s)
			return
		}
		if isID {
			if prev, seen := c.ids[rv]; seen && prev != sv {
				c.add(path, r, s)
			} else if !seen {
				c.ids[rv] = sv
			}
			return
		}
		if rv != sv && !maskedMatch(rv, sv) {
			c.add(path, r, s)
		}
	default:
		if r != s { // numbers, booleans and null: comparable, and typed
			c.add(path, r, s)
		}
	}
}

// maskedMatch reports whether sent is recorded with each mask standing
// for a secret.
func maskedMatch(recorded, sent string) bool {
	if !strings.Contains(recorded, report.Mask) {
		return false
	}
	parts := strings.Split(recorded, report.Mask)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	re, err := regexp.Compile(`^(?s)` + strings.Join(parts, ".+?") + `$`)
	return err == nil && re.MatchString(sent)
}

// missing stands for a value that is not there.
type missing struct{}

func show(v any) string {
	if _, ok := v.(missing); ok {
		return "(none)"
	}
	b, _ := json.Marshal(v)
	return short(string(b))
}

func short(s string) string {
	if len(s) > 120 {
		return s[:117] + "…"
	}
	return s
}

func cmpPath(p string) string {
	if p == "" {
		return "the body"
	}
	return strings.TrimPrefix(p, ".")
}
