package textbuf

import (
	"strings"
	"testing"
)

func TestBuffer(t *testing.T) {
	var b Buffer
	if b.String() != "" || b.Len() != 0 {
		t.Fatal("zero value not empty")
	}
	var want strings.Builder
	for i, s := range []string{"a", strings.Repeat("x", chunkSize-1), "bc", "", strings.Repeat("y", 3*chunkSize+5), "é"} {
		b.WriteString(s)
		want.WriteString(s)
		if i == 2 && b.String() != want.String() {
			t.Fatalf("after %d writes: %d bytes, want %d", i+1, len(b.String()), want.Len())
		}
	}
	if got := b.String(); got != want.String() || b.Len() != want.Len() {
		t.Fatalf("got %d bytes (Len %d), want %d", len(got), b.Len(), want.Len())
	}
	b.WriteString("more") // writes after String keep the text
	want.WriteString("more")
	if b.String() != want.String() {
		t.Fatal("a write after String lost text")
	}
}

func BenchmarkBuffer(b *testing.B) {
	delta := strings.Repeat("d", 20)
	b.ReportAllocs()
	for b.Loop() {
		var buf Buffer
		for range 100_000 {
			buf.WriteString(delta)
		}
		_ = buf.String()
	}
}
