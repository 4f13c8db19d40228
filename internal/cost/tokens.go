package cost

import (
	"encoding/json"
	"fmt"
)

// Field is one token count of Tokens.
type Field uint8

// The token counts. Input counts every input token, cached ones and cache
// writes among them; Output counts every output token, reasoning ones among
// them; Total is Input + Output unless the source said otherwise.
const (
	Input Field = iota
	Output
	Total
	Reasoning
	CachedInput
	CacheWrite
	numFields
)

var fieldNames = [numFields]string{"input_tokens", "output_tokens", "total_tokens", "reasoning_tokens", "cached_input_tokens", "cache_write_input_tokens"}

// String is the field's JSON name ("input_tokens").
func (f Field) String() string {
	if f < numFields {
		return fieldNames[f]
	}
	return fmt.Sprintf("Field(%d)", f)
}

// Tokens holds the token counts a source reported; a count it did not
// report is unknown (Known says which are set).
type Tokens struct {
	n     [numFields]int64
	known uint8
}

// Set sets a count and marks it known.
func (t *Tokens) Set(f Field, n int64) {
	t.n[f] = n
	t.known |= 1 << f
}

// Get returns a count and whether it is known.
func (t Tokens) Get(f Field) (int64, bool) { return t.n[f], t.known&(1<<f) != 0 }

// Known reports whether the count is known.
func (t Tokens) Known(f Field) bool { return t.known&(1<<f) != 0 }

// Empty reports whether no count is known.
func (t Tokens) Empty() bool { return t.known == 0 }

// Zero reports whether every known count is zero (an empty Tokens is):
// the source reported using nothing, as some report when they know
// nothing.
func (t Tokens) Zero() bool {
	for f := range numFields {
		if n, ok := t.Get(f); ok && n != 0 {
			return false
		}
	}
	return true
}

// TotalTokens is the total: as reported, or Input + Output when both are
// known and the total was not reported.
func (t Tokens) TotalTokens() (int64, bool) {
	if n, ok := t.Get(Total); ok {
		return n, true
	}
	in, okIn := t.Get(Input)
	out, okOut := t.Get(Output)
	return in + out, okIn && okOut
}

// Sum returns t + o: a count is known in the sum when it is known in both
// (a zero Tokens, with nothing known, is the identity).
func (t Tokens) Sum(o Tokens) Tokens {
	if t.known == 0 {
		return o
	}
	if o.known == 0 {
		return t
	}
	var s Tokens
	// The total is summed as each side knows it, derived or reported.
	tt, okT := t.TotalTokens()
	ot, okO := o.TotalTokens()
	for f := range numFields {
		if f == Total {
			continue
		}
		if t.Known(f) && o.Known(f) {
			s.Set(f, t.n[f]+o.n[f])
		}
	}
	if okT && okO {
		s.Set(Total, tt+ot)
	}
	return s
}

// MarshalJSON writes the known counts only.
func (t Tokens) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	first := true
	for f := range numFields {
		n, ok := t.Get(f)
		if f == Total {
			n, ok = t.TotalTokens()
		}
		if !ok {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = fmt.Appendf(b, "%q:%d", fieldNames[f], n)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes: absent counts stay unknown.
func (t *Tokens) UnmarshalJSON(b []byte) error {
	var m map[string]*int64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*t = Tokens{}
	for f := range numFields {
		if v := m[fieldNames[f]]; v != nil {
			t.Set(f, *v)
		}
	}
	return nil
}
