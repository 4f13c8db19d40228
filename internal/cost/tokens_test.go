package cost

import (
	"encoding/json"
	"testing"
)

// tok builds Tokens from pairs of field and count.
func tok(kv ...int64) Tokens {
	var t Tokens
	for i := 0; i+1 < len(kv); i += 2 {
		t.Set(Field(kv[i]), kv[i+1])
	}
	return t
}

const (
	in  = int64(Input)
	out = int64(Output)
	tot = int64(Total)
	rsn = int64(Reasoning)
	cch = int64(CachedInput)
	wrt = int64(CacheWrite)
)

func TestTokensKnown(t *testing.T) {
	x := tok(in, 100, cch, 0)
	for _, tc := range []struct {
		f     Field
		n     int64
		known bool
	}{
		{Input, 100, true},
		{CachedInput, 0, true}, // a reported zero is known
		{Output, 0, false},
		{Total, 0, false},
		{Reasoning, 0, false},
		{CacheWrite, 0, false},
	} {
		n, ok := x.Get(tc.f)
		if n != tc.n || ok != tc.known || x.Known(tc.f) != tc.known {
			t.Errorf("%s: Get = %d, %v; Known = %v; want %d, %v", tc.f, n, ok, x.Known(tc.f), tc.n, tc.known)
		}
	}
	if x.Empty() || !(Tokens{}).Empty() {
		t.Error("Empty: a Tokens with a count set is not empty, a zero Tokens is")
	}
	if x.Zero() || !tok(cch, 0, tot, 0).Zero() || !(Tokens{}).Zero() {
		t.Error("Zero: a Tokens with a count above zero is not zero; one whose known counts are all zero is, and so is an empty one")
	}
	if got := Field(99).String(); got != "Field(99)" {
		t.Errorf("Field(99).String() = %q", got)
	}
	if got := CacheWrite.String(); got != "cache_write_input_tokens" {
		t.Errorf("CacheWrite.String() = %q", got)
	}
}

func TestTotalTokens(t *testing.T) {
	for _, tc := range []struct {
		name  string
		t     Tokens
		n     int64
		known bool
	}{
		{"derived", tok(in, 100, out, 20), 120, true},
		{"reported wins", tok(in, 100, out, 20, tot, 130), 130, true},
		{"reported alone", tok(tot, 42), 42, true},
		{"input alone", tok(in, 100), 0, false},
		{"output alone", tok(out, 100), 0, false},
		{"nothing", Tokens{}, 0, false},
	} {
		n, ok := tc.t.TotalTokens()
		if ok != tc.known || ok && n != tc.n {
			t.Errorf("%s: TotalTokens = %d, %v; want %d, %v", tc.name, n, ok, tc.n, tc.known)
		}
	}
}

func TestTokensSum(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b Tokens
		want Tokens
	}{
		{"both known", tok(in, 1, out, 2), tok(in, 10, out, 20), tok(in, 11, out, 22, tot, 33)},
		{"known in one only", tok(in, 1, out, 2, rsn, 1), tok(in, 10, out, 20), tok(in, 11, out, 22, tot, 33)},
		{"reported total plus derived", tok(tot, 5), tok(in, 1, out, 2), tok(tot, 8)},
		{"total unknown on one side", tok(in, 1), tok(in, 2, out, 3), tok(in, 3)},
		{"zero is the identity", Tokens{}, tok(in, 4, cch, 1), tok(in, 4, cch, 1)},
		{"identity on the right", tok(out, 7), Tokens{}, tok(out, 7)},
		{"every field", tok(in, 1, out, 2, rsn, 3, cch, 4, wrt, 5), tok(in, 10, out, 20, rsn, 30, cch, 40, wrt, 50),
			tok(in, 11, out, 22, tot, 33, rsn, 33, cch, 44, wrt, 55)},
	} {
		if got := tc.a.Sum(tc.b); got != tc.want {
			t.Errorf("%s: Sum = %s, want %s", tc.name, js(t, got), js(t, tc.want))
		}
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTokensJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    Tokens
		want string
	}{
		{"nothing known", Tokens{}, `{}`},
		{"derived total written", tok(in, 100, out, 20), `{"input_tokens":100,"output_tokens":20,"total_tokens":120}`},
		{"zero kept", tok(in, 0, out, 0, cch, 0), `{"input_tokens":0,"output_tokens":0,"total_tokens":0,"cached_input_tokens":0}`},
		{"total alone", tok(tot, 9), `{"total_tokens":9}`},
		{"all", tok(in, 1, out, 2, tot, 3, rsn, 4, cch, 5, wrt, 6),
			`{"input_tokens":1,"output_tokens":2,"total_tokens":3,"reasoning_tokens":4,"cached_input_tokens":5,"cache_write_input_tokens":6}`},
	} {
		got := js(t, tc.t)
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
			continue
		}
		var back Tokens
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for f := range numFields {
			n1, ok1 := tc.t.Get(f)
			n2, ok2 := back.Get(f)
			if f == Total {
				n1, ok1 = tc.t.TotalTokens()
			}
			if n1 != n2 || ok1 != ok2 {
				t.Errorf("%s: %s after a round trip: %d, %v; want %d, %v", tc.name, f, n2, ok2, n1, ok1)
			}
		}
		if again := js(t, back); again != got {
			t.Errorf("%s: written again as %s", tc.name, again)
		}
	}
	var x Tokens
	if err := json.Unmarshal([]byte(`{"input_tokens":"many"}`), &x); err == nil {
		t.Error("a count that is not a number is an error")
	}
	if err := json.Unmarshal([]byte(`{"input_tokens":3,"other":1}`), &x); err != nil || x != tok(in, 3) {
		t.Errorf("unknown keys are ignored: %v, %s", err, js(t, x))
	}
}
