package cli

import (
	"regexp"
	"strings"
	"testing"
)

// ansi matches an ANSI colour sequence.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// plain is s without its colours.
func plain(s string) string { return ansi.ReplaceAllString(s, "") }

// TestColor: status marks are coloured on a terminal and in a GitHub
// Actions log, never when piped, nor with NO_COLOR set (unless --color
// always says otherwise).
func TestColor(t *testing.T) {
	dir := copySuite(t, "quickstart")
	for _, tc := range []struct {
		name  string
		env   map[string]string
		args  []string
		color bool
	}{
		{"piped", map[string]string{"NO_COLOR": "", "GITHUB_ACTIONS": ""}, nil, false},
		// An empty NO_COLOR is as good as none (no-color.org).
		{"GitHub Actions, NO_COLOR empty", map[string]string{"NO_COLOR": "", "GITHUB_ACTIONS": "true"}, nil, true},
		{"NO_COLOR in GitHub Actions", map[string]string{"NO_COLOR": "1", "GITHUB_ACTIONS": "true"}, nil, false},
		{"always", map[string]string{"NO_COLOR": "1", "GITHUB_ACTIONS": ""}, []string{"--color=always"}, true},
		{"never", map[string]string{"NO_COLOR": "", "GITHUB_ACTIONS": "true"}, []string{"--color", "never"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "weather.ananke.yaml", "-o", t.TempDir()}, tc.args...)
			r := run(t, dir, tc.env, args...)
			if r.code != ExitPass {
				t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
			}
			if got := ansi.MatchString(r.out); got != tc.color {
				t.Errorf("coloured %v; want %v:\n%q", got, tc.color, r.out)
			}
			if !strings.Contains(plain(r.out), "✓ weather in Paris uses the weather tool") {
				t.Errorf("the output lacks the test's line:\n%s", plain(r.out))
			}
		})
	}
	if r := run(t, dir, nil, "run", "--color=sometimes"); r.code != ExitInvalid || !strings.Contains(r.errOut, `--color: "sometimes" is not auto, always or never`) {
		t.Errorf("bad --color: exit %d %q", r.code, r.errOut)
	}
}
