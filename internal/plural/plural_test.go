package plural

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "criterion", "0 criteria"},
		{1, "criterion", "1 criterion"},
		{2, "criterion", "2 criteria"},
		{1, "attempt", "1 attempt"},
		{3, "attempt", "3 attempts"},
		{2, "retry", "2 retries"},
		{1, "retry", "1 retry"},
		{2, "key", "2 keys"},
		{2, "day", "2 days"},
		{0, "check", "0 checks"},
		{-1, "check", "-1 checks"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
