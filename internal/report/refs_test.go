package report

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRefs(t *testing.T) {
	tests := []struct {
		refs Refs
		json string
	}{
		{Refs{}, `[]`},
		{Refs{7}, `[7]`},
		{Refs{2, 3}, `[2,3]`},
		{Refs{2, 3, 4}, `[[2,4]]`},
		{Refs{1, 3, 4, 5, 6, 9, 10, 12}, `[1,[3,6],9,10,12]`},
		{Refs{5, 4, 3}, `[5,4,3]`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.refs)
		if err != nil || string(b) != tt.json {
			t.Errorf("%v marshals to %s (%v), want %s", tt.refs, b, err, tt.json)
		}
		var back Refs
		if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(back, tt.refs) {
			t.Errorf("%s reads back as %v (%v)", b, back, err)
		}
	}
	for _, bad := range []string{`[[3,1]]`, `[[1]]`, `["x"]`, `[[1,2,3]]`, `[[1,200000000]]`} {
		var r Refs
		if err := json.Unmarshal([]byte(bad), &r); err == nil {
			t.Errorf("%s read as %v", bad, r)
		}
	}
}

func TestCapText(t *testing.T) {
	b := &builder{red: NewRedactor([]string{"sk-secret-value"}, nil)}
	long := strings.Repeat("a", TextCap-3) + "sk-secret-value" + strings.Repeat("é", 2*TextCap)
	got, n := b.capText(long)
	if n != len(long) || !strings.HasSuffix(got, "***…") || strings.Contains(got, "sk-") || !utf8.ValidString(got) {
		t.Errorf("cut to %d bytes (whole %d): ...%q", len(got), n, got[len(got)-10:])
	}
	if got, n := b.capText("short sk-secret-value"); got != "short ***" || n != 0 {
		t.Errorf("short text: %q %d", got, n)
	}
	edge := strings.Repeat("b", TextCap-1) + "é"
	if got, n := b.capText(edge); n != len(edge) || got != strings.Repeat("b", TextCap-1)+"…" {
		t.Errorf("a rune across the cap: %d bytes, %d", len(got), n)
	}
}
