package schemacheck

import (
	"strings"
	"testing"
)

// charge is the schema of a card charge's arguments, as an interrupt's
// responseSchema gives it.
const charge = `{"type":"object","properties":{"amount":{"type":"number","exclusiveMinimum":0,"maximum":1000},
 "currency":{"type":"string","enum":["EUR","USD"]}},"required":["amount","currency"],"additionalProperties":false}`

func TestCheck(t *testing.T) {
	s, err := Compile([]byte(charge), "mem://charge.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		value   string
		want    []string // each problem's String(), in order
		missing []string
		extra   []string
	}{
		{value: `{"amount":30,"currency":"USD"}`},
		{value: `{"amount":5000,"currency":"EUR"}`, want: []string{"at /amount: maximum: got 5,000, want 1,000"}},
		{value: `{"amount":30}`, want: []string{"at the top: missing property 'currency'"}, missing: []string{"currency"}},
		{value: `{"amount":30,"currency":"EUR","tip":2}`, want: []string{"at the top: additional properties 'tip' not allowed"}, extra: []string{"tip"}},
		{value: `{"amount":"a lot","currency":"GBP"}`, want: []string{"at /amount: got string, want number", "at /currency: value must be one of 'EUR', 'USD'"}},
	} {
		ps, err := s.Check([]byte(c.value))
		if err != nil {
			t.Fatalf("%s: %v", c.value, err)
		}
		var got []string
		var missing, extra []string
		for _, p := range ps {
			got = append(got, p.String())
			missing, extra = append(missing, p.Missing...), append(extra, p.Extra...)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") || strings.Join(missing, ",") != strings.Join(c.missing, ",") || strings.Join(extra, ",") != strings.Join(c.extra, ",") {
			t.Errorf("%s: %q missing %v extra %v; want %q missing %v extra %v", c.value, got, missing, extra, c.want, c.missing, c.extra)
		}
	}
	if _, err := s.Check([]byte("{")); err == nil {
		t.Error("a value that is not JSON checked")
	}
}

func TestCompileRefuses(t *testing.T) {
	for doc, want := range map[string]string{
		`{"type":`:        "not JSON",
		`{"type":"blob"}`: "not a valid JSON Schema",
	} {
		if _, err := Compile([]byte(doc), "mem://s.json"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", doc, err, want)
		}
	}
}

func TestJoin(t *testing.T) {
	ps := []Problem{{Message: "a"}, {Path: []string{"x/y"}, Message: "b"}, {Message: "c"}}
	if got, want := Join(ps, 2), "at the top: a; at /x~1y: b; 1 more"; got != want {
		t.Errorf("%q; want %q", got, want)
	}
}
