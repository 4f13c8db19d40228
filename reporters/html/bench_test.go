package html_test

import (
	"io"
	"testing"

	"github.com/ananke/action/reporters/html"
)

// countingWriter counts the bytes written through it.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// BenchmarkWrite500 writes the page of a 500-test suite (synthetic: two
// turns a test, two or three tool calls and twenty text deltas a turn,
// about 75 events a test) and reports its size. docs/reports.md records
// the figures.
func BenchmarkWrite500(b *testing.B) {
	r := synthetic(500)
	var size countingWriter
	if err := html.Write(&size, r); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer() // it also drops metrics reported so far
	for b.Loop() {
		if err := html.Write(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size.n), "B/report")
}
