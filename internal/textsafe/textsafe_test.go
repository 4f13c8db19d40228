package textsafe

import "testing"

func TestVisible(t *testing.T) {
	for _, tc := range []struct {
		in   string
		keep bool
		want string
	}{
		{"plain text, tabs\tand ünïcode", false, "plain text, tabs\tand ünïcode"},
		{"\x1b[31mred\x1b[0m", false, `\x1b[31mred\x1b[0m`},
		{"two\nlines\r", false, `two⏎lines\x0d`},
		{"two\nlines\r", true, "two\nlines\\x0d"},
		{"bell\a del\x7f c1\u0085", true, `bell\x07 del\x7f c1\x85`},
		{"bad \xff byte", false, "bad \uFFFD byte"},
	} {
		if got := Visible(tc.in, tc.keep); got != tc.want {
			t.Errorf("Visible(%q, %v) = %q; want %q", tc.in, tc.keep, got, tc.want)
		}
	}
}
