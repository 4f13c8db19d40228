package snapshot

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
)

// sample is a file with what a snapshot may hold: strings YAML would read
// as something else, numbers as written, nested values, replies of both
// kinds, turns without calls.
func sample() *File {
	tricky := `{"yes":"true","num":"12","null":"null","date":"2026-01-02","colon":"a: b","multi":"line one\nline two","empty":"",` +
		`"n":[1,-0.5,1e3,12345678901234567890],"b":[true,false,null],"nested":{"list":[{"x":"y"}],"":"empty key","123":"numeric key"}}`
	return &File{Entries: map[Key]Snapshot{
		{Test: "shop/refund", Assertion: "test.snapshot"}: Take(scope(
			turn(0, "# Done\n\n- a\n- b", call("search_orders", `{"order_id":"A-1042"}`)),
			turn(1, ""),
			turn(2, "x", call("odd", tricky), call("raw", "not json"), call("none", "")),
		), Rules{Text: TextStructure}),
		{Test: "shop/refund", Assertion: "turn[0].snapshot"}: Take(scope(turn(0, "Refunded  5 EUR.\n\nThanks!")), Rules{Text: TextExact}),
		{Test: "123", Assertion: "test.target.snapshot"}:     Take(scope(turn(0, "", call("t", `{}`))), Rules{}),
	}}
}

// TestMarshal: the file reads as it is written (testdata/sample.snap.yaml),
// the same entries always make the same bytes, and it reads back equal.
func TestMarshal(t *testing.T) {
	f := sample()
	out := f.Marshal()
	golden.Assert(t, filepath.Join("testdata", "sample.snap.yaml"), string(out))
	for range 5 {
		if again := sample().Marshal(); !bytes.Equal(again, out) {
			t.Fatal("the same entries wrote other bytes")
		}
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if !sameFile(f, back) {
		t.Errorf("read back otherwise:\n%s", back.Marshal())
	}
	if !bytes.Equal(back.Marshal(), out) {
		t.Error("written again, it changed")
	}
}

func sameFile(a, b *File) bool {
	if len(a.Entries) != len(b.Entries) {
		return false
	}
	for k, s := range a.Entries {
		o, ok := b.Entries[k]
		if !ok || len(Diff(s, o, 0)) > 0 || !Equal(s, o, 0) {
			return false
		}
	}
	return true
}

// TestReadStrict: what Ananke would not write is refused, at its line.
func TestReadStrict(t *testing.T) {
	const ok = "version: 1\nsnapshots:\n  t:\n    test.snapshot:\n      turns:\n        - turn: 0\n"
	if _, err := Read([]byte(ok)); err != nil {
		t.Fatalf("a minimal file: %v", err)
	}
	if f, err := Read([]byte("version: 1\nsnapshots: {}\n")); err != nil || len(f.Entries) != 0 {
		t.Fatalf("an empty file: %v", err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "the file is empty"},
		{"two documents", "version: 1\nsnapshots: {}\n---\nversion: 1\n", "one YAML document"},
		{"not a mapping", "- 1\n", "line 1: the file must be a mapping"},
		{"no version", "snapshots: {}\n", "line 1: no version"},
		{"another version", "version: 2\nsnapshots: {}\n", `line 1: version "2"`},
		{"a version as a string", "version: \"1\"\nsnapshots: {}\n", `version "1"`},
		{"no snapshots", "version: 1\n", "no snapshots"},
		{"an unknown key", "version: 1\nsnapshots: {}\nextra: 1\n", `line 3: the file: unknown key "extra"`},
		{"a key twice", "version: 1\nsnapshots:\n  t: {}\n  t: {}\n", `line 4: snapshots: "t" is written twice`},
		{"a number as a key", "version: 1\nsnapshots:\n  1: {}\n", "a key must be a string"},
		{"an alias", "version: 1\nsnapshots:\n  t: &a {}\n  u: *a\n", "anchors and aliases"},
		{"a merge key", "version: 1\nsnapshots:\n  t:\n    <<: {}\n", "merge keys"},
		{"no turns", "version: 1\nsnapshots:\n  t:\n    a: {}\n", "a snapshot has no turns"},
		{"turns not a list", "version: 1\nsnapshots:\n  t:\n    a: {turns: 1}\n", "turns must be a list"},
		{"no turn index", ok + "          calls: []\n        - calls: []\n", "line 8: a turn has no turn:"},
		{"a negative turn", strings.Replace(ok, "turn: 0", "turn: -1", 1), `turn "-1" is not an index`},
		{"turns out of order", ok + "        - turn: 0\n", "line 7: turn 0 comes after turn 0"},
		{"a call without its tool", ok + "          calls: [{arguments: {}}]\n", "a call has no tool"},
		{"an empty tool", ok + "          calls: [{tool: \"\"}]\n", "a call's tool is empty"},
		{"a tool that is a number", ok + "          calls: [{tool: 12}]\n", "tool must be a string"},
		{"an unknown call key", ok + "          calls: [{tool: t, id: x}]\n", `a call: unknown key "id"`},
		{"a timestamp argument", ok + "          calls: [{tool: t, arguments: {at: 2026-01-02}}]\n", `"2026-01-02" is not a JSON value`},
		{"a YAML number", ok + "          calls: [{tool: t, arguments: 0x1F}]\n", `"0x1F" is not a JSON value`},
		{"an infinity", ok + "          calls: [{tool: t, arguments: .inf}]\n", `".inf" is not a JSON value`},
		{"a YAML boolean", ok + "          calls: [{tool: t, arguments: yes}]\n", ""},
		{"a capitalised boolean", ok + "          calls: [{tool: t, arguments: True}]\n", `"True" is not a JSON value`},
		{"binary", ok + "          calls: [{tool: t, arguments: !!binary aGk=}]\n", "is not a JSON value"},
		{"text of two kinds", ok + "          text: {structure: [], exact: []}\n", "text holds one of structure or exact"},
		{"text of an unknown kind", ok + "          text: {words: []}\n", "text holds one of structure or exact"},
		{"a line that is a number", ok + "          text: {exact: [1]}\n", "must be a string"},
		{"not YAML", "version: [1\n", "did not find expected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read([]byte(tc.in))
			if tc.want == "" {
				// yes is a string in YAML 1.2, as yaml.v3 reads it
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// FuzzRead: whatever the bytes, Read does not panic, and what it reads
// writes a file that reads back the same and writes the same bytes.
func FuzzRead(f *testing.F) {
	f.Add(sample().Marshal())
	f.Add([]byte("version: 1\nsnapshots: {}\n"))
	f.Add([]byte("version: 1\nsnapshots:\n  t:\n    a:\n      turns:\n        - turn: 3\n          calls: [{tool: x, arguments: [1, \"2\", {k: null}]}]\n          text: {exact: [\"a\"]}\n"))
	f.Add([]byte("version: 1\nsnapshots:\n  t: &x {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Read(data)
		if err != nil {
			return
		}
		out := got.Marshal()
		back, err := Read(out)
		if err != nil {
			t.Fatalf("what it read does not read back: %v\n%s", err, out)
		}
		if !sameFile(got, back) {
			t.Fatalf("read back otherwise:\n%s", out)
		}
		if again := back.Marshal(); !bytes.Equal(again, out) {
			t.Fatalf("written twice, two outputs:\n%s\n---\n%s", out, again)
		}
	})
}

// TestMarshalAnyText: whatever an agent sends — invalid UTF-8, control
// characters, YAML syntax, trailing spaces — its snapshot is written and
// reads back as taken.
func TestMarshalAnyText(t *testing.T) {
	for _, s := range []string{"bad \xff\xfe utf-8", "nul \x00 bell \a esc \x1b[31m", "- [a, b]: {c}", "trailing  \n", "  leading", "tab\there",
		"#comment", "&anchor *alias", "'quoted' \"double\"", "\u2028line\u2029sep", "\ufeffbom", "|\n  literal", "~", "%YAML", "@at `tick`"} {
		sc := scope(turn(0, s+"\n\n"+s, call(s, s), call("t", `{"k":`+strconv.Quote(s)+`}`)))
		for _, mode := range []Text{TextExact, TextStructure} {
			f := &File{Entries: map[Key]Snapshot{{Test: "t", Assertion: "test.snapshot"}: Take(sc, Rules{Text: mode})}}
			out := f.Marshal()
			back, err := Read(out)
			if err != nil {
				t.Fatalf("%q: %v\n%s", s, err, out)
			}
			if !sameFile(f, back) {
				t.Errorf("%q: read back otherwise:\n%s", s, out)
			}
		}
	}
}
