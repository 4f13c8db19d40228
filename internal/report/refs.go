package report

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Refs are sequence numbers of trace events. In JSON a run of three or
// more consecutive numbers is written as [first, last]: a check over a
// hundred thousand text deltas names them in a few bytes, not in 700 KB —
// [2, 3, 5, [7, 100006]] reads as 2, 3, 5, 7, 8, …, 100006.
type Refs []int64

// MarshalJSON writes the numbers with their runs folded.
func (r Refs) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i := 0; i < len(r); {
		j := i
		for j+1 < len(r) && r[j+1] == r[j]+1 {
			j++
		}
		if i > 0 {
			b = append(b, ',')
		}
		if j-i >= 2 {
			b = append(b, '[')
			b = strconv.AppendInt(b, r[i], 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, r[j], 10)
			b = append(b, ']')
			i = j + 1
			continue
		}
		b = strconv.AppendInt(b, r[i], 10)
		i++
	}
	return append(b, ']'), nil
}

// maxUnfolded bounds the numbers a run may unfold to when read back: a
// report names events of one trace.
const maxUnfolded = 100_000_000

// UnmarshalJSON reads numbers and [first, last] runs.
func (r *Refs) UnmarshalJSON(b []byte) error {
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return err
	}
	out := Refs{}
	for _, it := range items {
		var n int64
		if err := json.Unmarshal(it, &n); err == nil {
			out = append(out, n)
			continue
		}
		var run []int64
		if err := json.Unmarshal(it, &run); err != nil || len(run) != 2 || run[1] < run[0] || run[1]-run[0] > maxUnfolded {
			return fmt.Errorf("event refs: %s is neither a number nor a [first, last] run", it)
		}
		for n := run[0]; n <= run[1]; n++ {
			out = append(out, n)
		}
	}
	*r = out
	return nil
}
