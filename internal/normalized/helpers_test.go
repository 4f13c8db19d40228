package normalized

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// dataOf is an event's data as JSON decodes it.
func dataOf(t *testing.T, e Event) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(mustJSON(e.Data), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func dump(evs []Event) string {
	b, _ := json.MarshalIndent(evs, "", "  ")
	return string(b)
}

func itoa(i int) string { return strconv.Itoa(i) }

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
