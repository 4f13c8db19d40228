package bless

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/trace"
)

// maxArgDepth bounds how deep into nested arguments identifiers are
// looked for.
const maxArgDepth = 4

// arg is one leaf of a call's arguments: its dotted path (as args_match
// names it), its text (a string as it is, a number as sent) and whether
// it is a string.
type arg struct {
	path, value string
	isString    bool
}

// inferArgs: a call's identifier arguments are required as sent, one
// entry per tool and set of values.
func inferArgs(c *Conversation, s trace.Scope, turn int) []Check {
	said := userSaid(s)
	var out []Check
	for _, call := range calls(s) {
		if !call.ArgsJSON {
			continue
		}
		var ids []arg
		for _, a := range leaves(call.Args) {
			if Identifier(a.path, a.value, a.isString) || (a.isString && IsDate(a.value) && strings.Contains(said, a.value)) {
				ids = append(ids, a)
			}
		}
		if len(ids) == 0 {
			continue
		}
		match := mapping()
		match.Style = yaml.FlowStyle
		var what []string
		for _, a := range ids {
			match.Content = append(match.Content, str(a.path), quoted(literal("^"+regexp.QuoteMeta(a.value)+"$")))
			what = append(what, a.path+" "+a.value)
		}
		out = append(out, Check{Kind: Args, Turn: turn, Section: []string{"tools", "require"}, List: true,
			Value: mapping("name", str(call.Name), "args_match", match), Tool: call.Name,
			Why: "the agent called " + call.Name + " with " + strings.Join(what, ", ") + " " + in(turn)})
	}
	return out
}

// userSaid is every user message of the test up to the scope, and its
// history: a date there is the user's, not one the agent computed.
func userSaid(s trace.Scope) string {
	var b strings.Builder
	for _, m := range s.History {
		b.WriteString(m.Content + "\n")
	}
	for _, t := range slices.Concat(s.Prior, s.Turns) {
		b.WriteString(t.UserText + "\n")
	}
	return b.String()
}

// leaves are the scalar leaves of a JSON object of arguments, in the order
// sent.
func leaves(raw string) []arg {
	var out []arg
	walk(json.RawMessage(raw), "", 0, &out)
	return out
}

func walk(raw json.RawMessage, path string, depth int, out *[]arg) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return
	}
	switch v := tok.(type) {
	case json.Delim:
		if depth >= maxArgDepth || (v != '{' && v != '[') {
			return
		}
		for i := 0; dec.More(); i++ {
			key := strconv.Itoa(i)
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return
				}
				key, _ = k.(string)
				if path != "" && strings.Contains(key, ".") { // a dotted path could not name it
					var skip json.RawMessage
					if dec.Decode(&skip) != nil {
						return
					}
					continue
				}
			} else if path == "" {
				return // arguments are an object
			}
			var val json.RawMessage
			if dec.Decode(&val) != nil {
				return
			}
			p := key
			if path != "" {
				p = path + "." + key
			}
			walk(val, p, depth+1, out)
		}
	case string:
		if path != "" {
			*out = append(*out, arg{path: path, value: v, isString: true})
		}
	case json.Number:
		if path != "" {
			*out = append(*out, arg{path: path, value: v.String()})
		}
	}
}
