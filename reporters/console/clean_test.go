package console

import "testing"

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, tabs\tand ünïcode": "plain text, tabs\tand ünïcode",
		"\x1b[31mred\x1b[0m":            `\x1b[31mred\x1b[0m`,
		"two\nlines\r":                  `two⏎lines\x0d`,
		"bell\a del\x7f c1\u0085":       `bell\x07 del\x7f c1\x85`,
		"bad \xff byte":                 "bad \uFFFD byte",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q; want %q", in, got, want)
		}
	}
}
