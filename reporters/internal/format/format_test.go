package format

import "testing"

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Duration(420), "420ms"}, {Duration(1700), "1.7s"}, {Duration(125_000), "2m5s"},
		{Short("héllo", 10), "héllo"}, {Short("héllo wörld", 5), "héll…"},
		{ShortID("call-1"), "call-1"}, {ShortID("4736b995-f85b-4097-a188-2a4e43c0c1c4-call-1"), "…0c1c4-call-1"},
		{OneLine("a\r\nb\nc", 80), "a⏎b⏎c"}, {OneLine("", 5), `""`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q; want %q", tc.got, tc.want)
		}
	}
}
