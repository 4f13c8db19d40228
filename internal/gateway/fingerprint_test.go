package gateway

import (
	"strings"
	"testing"
)

// TestFingerprint: what the fingerprint ignores — tool call ids (as
// ordinals), UUIDs, timestamps, key order, space and the ignored fields —
// and what it does not.
func TestFingerprint(t *testing.T) {
	const base = `{"model":"m","messages":[{"role":"system","content":"Session 0b9f2c8e-4d1a-4c3b-9e7f-1a2b3c4d5e6f, 2026-11-27T10:04:05.123Z"},` +
		`{"role":"assistant","tool_calls":[{"id":"call_A","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"call_B","type":"function","function":{"name":"g","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"call_A","content":"1"},{"role":"tool","tool_call_id":"call_B","content":"2"}],"user":"u-1","metadata":{"trace":"x"}}`
	ignore := []string{"user", "metadata.trace"}
	for _, tc := range []struct {
		name, from, to string
		same           bool
	}{
		{"other tool call ids", `call_A`, `toolu_01`, true},
		{"other UUID", "0b9f2c8e-4d1a-4c3b-9e7f-1a2b3c4d5e6f", "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE", true},
		{"other time", "2026-11-27T10:04:05.123Z", "2031-01-02 23:59+02:00", true},
		{"other date alone", "2026-11-27T10:04:05.123Z", "2027-02-03", true},
		{"an ignored field", `"user":"u-1"`, `"user":"u-2"`, true},
		{"an ignored field inside another", `{"trace":"x"}`, `{"trace":"y"}`, true},
		{"key order and space", `{"model":"m",`, `{ "model" : "m" , `, true},
		{"tool call ids swapped", `"tool_call_id":"call_A","content":"1"`, `"tool_call_id":"call_B","content":"1"`, false},
		{"a field beside an ignored one", `{"trace":"x"}`, `{"trace":"x","run":1}`, false},
		{"the model", `"model":"m"`, `"model":"n"`, false},
		{"a message", `"content":"1"`, `"content":"one"`, false},
		{"a number as written", `"content":"1"}`, `"content":"1","n":1.0}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := strings.Replace(base, tc.from, tc.to, -1)
			if other == base {
				t.Fatalf("%q is not in the request", tc.from)
			}
			a, err := parseRequest([]byte(base))
			if err != nil {
				t.Fatal(err)
			}
			b, err := parseRequest([]byte(other))
			if err != nil {
				t.Fatal(err)
			}
			na, nb := normalize(a, ignore), normalize(b, ignore)
			if same := fingerprint(na) == fingerprint(nb); same != tc.same {
				t.Errorf("same fingerprint: %v, want %v\n%s\n%s", same, tc.same, canonical(na), canonical(nb))
			}
		})
	}
}

// TestNormalize: the normalised form, and normalising it again changes
// nothing (recordings keep it and are read again).
func TestNormalize(t *testing.T) {
	req, err := parseRequest([]byte(`{"messages":[{"role":"assistant","tool_calls":[{"id":"call_9","function":{"name":"f"}}]},` +
		`{"role":"tool","tool_call_id":"call_9","content":"done at 2026-11-27 10:00 <b>&</b>"},{"role":"tool","tool_call_id":"other","content":"x"}],"n":1e3,"metadata":{"a":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	orig := string(canonical(req))
	norm := normalize(req, []string{"metadata"})
	want := `{"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f"},"id":"<tool-call-1>"}]},{"content":"done at <time> <b>&</b>","role":"tool","tool_call_id":"<tool-call-1>"},{"content":"x","role":"tool","tool_call_id":"<tool-call-2>"}],"n":1e3}`
	if got := string(canonical(norm)); got != want {
		t.Errorf("normalised\n%s\nwant\n%s", got, want)
	}
	if again := string(canonical(normalize(norm, []string{"metadata"}))); again != want {
		t.Errorf("normalised twice\n%s", again)
	}
	if string(canonical(req)) != orig {
		t.Error("normalize changed the request")
	}
}

// TestParseRequest: what is not one JSON object is refused.
func TestParseRequest(t *testing.T) {
	for body, want := range map[string]string{
		`[]`:       "the request body is not a JSON object",
		`{"a":1}x`: "the request body is not JSON: more than one JSON value",
		`{"a":`:    "the request body is not JSON: unexpected EOF",
		``:         "the request body is not JSON: EOF",
	} {
		if _, err := parseRequest([]byte(body)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// TestClosest: the candidate sharing the most lines wins, the first
// among equals, and the diff shows its changes with their context.
func TestClosest(t *testing.T) {
	lines := func(n int, change map[int]string) string {
		var b []string
		for i := range n {
			l := "line " + string(rune('a'+i))
			if c, ok := change[i]; ok {
				l = c
			}
			b = append(b, l)
		}
		return strings.Join(b, "\n")
	}
	req := lines(20, nil)
	cands := []string{lines(20, map[int]string{1: "x", 2: "y"}), lines(20, map[int]string{10: "changed"}), lines(20, map[int]string{12: "other"})}
	best, diff := closest(req, cands)
	want := "  …\n  line h\n  line i\n  line j\n- changed\n+ line k\n  line l\n  line m\n  line n\n  …\n"
	if best != 1 || diff != want {
		t.Errorf("closest %d, diff\n%s\nwant 1, diff\n%s", best, diff, want)
	}
	if best, _ := closest(req, nil); best != -1 {
		t.Errorf("closest of none: %d", best)
	}
	// a diff too long is cut, saying how much is left
	long := make(map[int]string)
	for i := range 200 {
		long[i] = "other " + strings.Repeat("x", i)
	}
	_, diff = closest(lines(200, nil), []string{lines(200, long)})
	if n := strings.Count(diff, "\n"); n != maxDiffLines+1 || !strings.HasSuffix(diff, "  … 320 more changed lines\n") {
		t.Errorf("a long diff has %d lines, ending %q", n, diff[len(diff)-40:])
	}
}
