package hooks

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLimitedBuffer(t *testing.T) {
	overflows := 0
	b := &limitedBuffer{max: 10, onOverflow: func() { overflows++ }}
	writes := []string{"abcd", "efgh", "ij", "k", strings.Repeat("x", 1000)}
	for _, w := range writes {
		if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil (keep draining)", w, n, err, len(w))
		}
	}
	if got := string(b.buf); got != "abcdefghij" {
		t.Errorf("kept %q, want %q", got, "abcdefghij")
	}
	if !b.overflow || overflows != 1 {
		t.Errorf("overflow = %v after %d calls, want true after 1", b.overflow, overflows)
	}
	if cap(b.buf) > 64 {
		t.Errorf("cap(buf) = %d: discarded output was buffered", cap(b.buf))
	}

	exact := &limitedBuffer{max: 4}
	exact.Write([]byte("abcd"))
	if exact.overflow {
		t.Error("writing exactly max bytes reported an overflow")
	}
}

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name   string
		max    int
		writes []string
		want   string
	}{
		{name: "short", max: 8, writes: []string{" ab", "c\n"}, want: "abc"},
		{name: "keeps the end", max: 8, writes: []string{"0123456789", "abcdef"}, want: "89abcdef"},
		{name: "many small writes", max: 4, writes: strings.Split("abcdefghijklmnop", ""), want: "mnop"},
		{name: "one big write", max: 4, writes: []string{strings.Repeat("x", 100) + "tail"}, want: "tail"},
		// "é" is 2 bytes, "✓" 3: a cut at max bytes from the end can land
		// inside a rune, whose remaining bytes must be dropped.
		{name: "cut on a rune boundary", max: 4, writes: []string{"ééé"}, want: "éé"},
		{name: "cut inside a rune when trimming", max: 4, writes: []string{"ab", "cé", "✓"}, want: "✓"},
		{name: "cut inside a rune at String", max: 4, writes: []string{"xé", "✓"}, want: "✓"},
		{name: "cut inside a 3-byte rune", max: 4, writes: []string{"ab✓✓"}, want: "✓"},
		{name: "invalid UTF-8 replaced", max: 8, writes: []string{"a\xffb"}, want: "a\uFFFDb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &tailBuffer{max: tc.max}
			for _, w := range tc.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
				if len(b.buf) >= 2*tc.max {
					t.Fatalf("buffer grew to %d bytes, want < %d", len(b.buf), 2*tc.max)
				}
			}
			got := b.String()
			if got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if !utf8.ValidString(got) || len(got) > tc.max+2 {
				t.Errorf("String() = %q: invalid UTF-8 or longer than max", got)
			}
		})
	}
}
