package secret

import (
	"slices"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for _, tc := range []struct {
		raw, masked string
		secrets     []string
	}{
		{"https://api.example.com/v1", "https://api.example.com/v1", nil},
		{"https://u:sk-pass@api.example.com/v1", "https://u:***@api.example.com/v1", []string{"sk-pass"}},
		{"https://u@api.example.com/v1", "https://u@api.example.com/v1", nil},
		{"https://h/agui?key=sk-123&debug=1&flag", "https://h/agui?key=***&debug=***&flag", []string{"sk-123"}},
		{"https://h/agui?token=a%2Bb%2Fc#frag", "https://h/agui?token=***#frag", []string{"a%2Bb%2Fc", "a+b/c"}},
		{"https://h/p#x?y=secret", "https://h/p#x?y=secret", nil}, // a fragment has no query
		{"/v2/chat/completions?sig=abcdef", "/v2/chat/completions?sig=***", []string{"abcdef"}},
		{"https://h/a@b/c?x=yes", "https://h/a@b/c?x=***", []string{"yes"}}, // an @ in the path is no userinfo
		{"not a url", "not a url", nil},
		{"", "", nil},
	} {
		if got := URL(tc.raw); got != tc.masked {
			t.Errorf("URL(%q) = %q; want %q", tc.raw, got, tc.masked)
		}
		if got := In(tc.raw); !slices.Equal(got, tc.secrets) {
			t.Errorf("In(%q) = %q; want %q", tc.raw, got, tc.secrets)
		}
	}
}

func TestPrivate(t *testing.T) {
	const u = "https://user:pw-123@host.example/agui?key=sk-abc&x=1"
	for _, tc := range []struct {
		part string
		want bool
	}{
		{"https://user:pw-123@host.example/agui?key=sk-abc&x=1", false}, // the whole URL
		{"host.example", false},
		{"/agui", false},
		{"/agui?key=sk-abc", false}, // reaches into the path
		{"user:pw-123", true},
		{"pw-123", true},
		{"sk-abc", true},
		{"key=sk-abc&x=1", true},
	} {
		from := strings.Index(u, tc.part)
		if got := Private(u, from, from+len(tc.part)); got != tc.want {
			t.Errorf("Private(%q) = %v; want %v", tc.part, got, tc.want)
		}
	}
}

func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://u:p@h/x?a=b&c=d#e", "//u:p@h", "?a=b", "https://h/a@b", "x://y?&&==", ":@?#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		m := URL(raw)
		if again := URL(m); again != m {
			t.Errorf("URL(URL(%q)) = %q; want %q", raw, again, m)
		}
		for _, s := range In(m) {
			if s != Mask {
				t.Errorf("In(URL(%q)) = %q: a secret is left", raw, In(m))
			}
		}
		_ = Private(raw, 0, len(raw))
	})
}
