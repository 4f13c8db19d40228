package jsonpath

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const doc = `{
  "reply": "hi",
  "session_id": 42,
  "big": 12345678901234567890,
  "usage": {"in": 10, "out": 3},
  "tool_calls": [
    {"name": "lookup", "args": {"order": "A-1"}},
    {"name": "refund", "args": "{\"amount\":5}"}
  ],
  "a/b": {"m~n": true},
  "odd key": [null, false],
  "héllo": "wörld",
  "": "empty"
}`

func TestEval(t *testing.T) {
	d, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want string // the matches as a JSON array
	}{
		{"$", ""}, // the document itself, checked below
		{"$.reply", `["hi"]`},
		{"/reply", `["hi"]`},
		{"$['reply']", `["hi"]`},
		{`$["reply"]`, `["hi"]`},
		{"$[ 'reply' ]", `["hi"]`},
		{"$.session_id", `[42]`},
		{"$.big", `[12345678901234567890]`},
		{"$.usage.in", `[10]`},
		{"/usage/out", `[3]`},
		{"$.tool_calls[0].name", `["lookup"]`},
		{"$.tool_calls[-1].name", `["refund"]`},
		{"$.tool_calls[*].name", `["lookup","refund"]`},
		{"$.tool_calls.*.name", `["lookup","refund"]`},
		{"/tool_calls/1/args", `["{\"amount\":5}"]`},
		{"$.usage.*", `[10,3]`}, // an object's members by name
		{"$.usage[*]", `[10,3]`},
		{"/a~1b/m~0n", `[true]`},
		{"$['a/b']['m~n']", `[true]`},
		{"$['odd key'][1]", `[false]`},
		{"$['odd key'][0]", `[null]`},
		{"$.héllo", `["wörld"]`},
		{`$['h\u00e9llo']`, `["wörld"]`},
		{"$['']", `["empty"]`},
		{"/", `["empty"]`},
		// what matches nothing
		{"$.missing", `null`},
		{"$.reply.length", `null`},
		{"$.tool_calls[2]", `null`},
		{"$.tool_calls[-3]", `null`},
		{"$.tool_calls.name", `null`},
		{"$.reply[0]", `null`},
		{"/tool_calls/-", `null`},
		{"/tool_calls/01", `null`},
		{"/tool_calls/x", `null`},
		{"$.usage[0]", `null`},
		{"$.missing[*]", `null`},
	} {
		p, err := Parse(tc.path)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.path, err)
			continue
		}
		got := p.Eval(d)
		if tc.path == "$" {
			if len(got) != 1 || !reflect.DeepEqual(got[0], d) {
				t.Errorf("$ selected %v; want the document", got)
			}
			continue
		}
		js, _ := json.Marshal(got)
		if string(js) != tc.want {
			t.Errorf("%s selected %s; want %s", tc.path, js, tc.want)
		}
		if p.String() != tc.path {
			t.Errorf("String() = %q; want %q", p.String(), tc.path)
		}
	}
}

func TestDefinite(t *testing.T) {
	for path, want := range map[string]bool{"$.a[0]": true, "/a/0": true, "$": true, "$.a[*].b": false, "$.*": false} {
		p, err := Parse(path)
		if err != nil {
			t.Fatal(err)
		}
		if p.Definite() != want {
			t.Errorf("%s: Definite() = %v; want %v", path, !want, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		path   string
		offset int
		msg    string // a part of the message
	}{
		{"", 0, "empty"},
		{"reply", 0, `not 'r'`},
		{"$.", 1, "ends with a dot"},
		{"$..a", 1, "recursive descent"},
		{"$.a.", 3, "ends with a dot"},
		{"$.user-id", 6, `'-' cannot be in a member name shorthand: write ['user-id']`},
		{"$.1a", 2, `'1' cannot start a member name: write ['1a']`},
		{"$.a b", 3, `' ' cannot be in a member name`},
		{"$a", 1, `'a' cannot follow a step`},
		{"$.[0]", 1, "a dot before ["},
		{"$[", 1, "not closed"},
		{"$[0", 1, "not closed"},
		{"$[]", 2, "empty"},
		{"$[?(@.a)]", 2, "filters"},
		{"$[0:2]", 3, "slices"},
		{"$[:2]", 2, "slices"},
		{"$[0,1]", 3, "unions"},
		{"$[01]", 2, "leading zero"},
		{"$[-0]", 2, "-0"},
		{"$[-]", 2, "minus"},
		{"$[99999999999999999999]", 2, "too large"},
		{"$[a]", 2, `'a' cannot start a selector`},
		{"$[0 x]", 4, "close it with ]"},
		{"$['a]", 2, "not closed"},
		{`$['a\q']`, 4, `\q is not an escape`},
		{`$['a\"']`, 4, `\" is not an escape inside ' quotes`},
		{`$['\u12']`, 3, "four hex digits"},
		{`$['\uD800']`, 3, "half a surrogate pair"},
		{`$['\uD800\u0041']`, 3, "not its low half"},
		{`$['\uDC00']`, 3, "low half"},
		{"$['a\tb']", 4, "control character"},
		{"$['a\\", 4, "backslash ends"},
		{"$.a\xff", 3, "UTF-8"},
		{"/a~", 2, "~ must be followed"},
		{"/a/b~2", 4, "~ must be followed"},
		{"/\xff", 1, "UTF-8"},
	} {
		_, err := Parse(tc.path)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v; want an *Error", tc.path, err)
			continue
		}
		if pe.Offset != tc.offset || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("Parse(%q): at %d: %s; want at %d a message with %q", tc.path, pe.Offset, pe.Msg, tc.offset, tc.msg)
		}
	}
}

func TestDecode(t *testing.T) {
	for _, bad := range []string{``, `{`, `{"a":1} x`, `1 2`, `nul`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) accepted it", bad)
		}
	}
	v, err := Decode([]byte(` {"n": 1.50} `))
	if err != nil {
		t.Fatal(err)
	}
	if n := v.(map[string]any)["n"]; n != json.Number("1.50") {
		t.Errorf("n decoded as %#v; want json.Number 1.50", n)
	}
}

// FuzzParse: Parse never panics; an error names a byte of the path (or
// its end); a path that parses selects the same values as its canonical
// form, which parses to the same steps.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"$", "$.a.b[0]", "$['a b'][*]", `$["\u00e9\n"]`, "$.a[-1].*", "/a/b~1c/0", "/", "$..a", "$[0:1]", "$['\\uD83D\\uDE00']", "x"} {
		f.Add(s)
	}
	d, _ := Decode([]byte(doc))
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) || pe.Msg == "" {
				t.Fatalf("Parse(%q): error %v is not at a byte of the path", s, err)
			}
			return
		}
		if p.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, p.String())
		}
		c := canonical(p)
		q, err := Parse(c)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", c, s, err)
		}
		if !reflect.DeepEqual(p.steps, q.steps) {
			t.Fatalf("%q parses to %+v; its canonical form %q to %+v", s, p.steps, c, q.steps)
		}
		p.Eval(d)
	})
}

// canonical writes a path's steps back: a JSONPath in brackets, or a
// JSON Pointer.
func canonical(p *Path) string {
	var b strings.Builder
	if len(p.steps) > 0 && p.steps[0].kind == pointer {
		for _, s := range p.steps {
			b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(s.name, "~", "~0"), "/", "~1"))
		}
		return b.String()
	}
	b.WriteString("$")
	for _, s := range p.steps {
		switch s.kind {
		case member:
			js, _ := json.Marshal(s.name)
			b.WriteString("[" + string(js) + "]")
		case index:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case wildcard:
			b.WriteString("[*]")
		}
	}
	return b.String()
}
