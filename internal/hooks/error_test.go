package hooks

import (
	"strings"
	"testing"
	"time"
)

func TestErrorString(t *testing.T) {
	const name = "bash seed.sh"
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{
			name: "start",
			err:  &Error{Kind: KindStart, Detail: `"seedx" not found in PATH`},
			want: `hook "bash seed.sh" could not start: "seedx" not found in PATH`,
		},
		{
			name: "exit with stderr lines",
			err:  &Error{Kind: KindExit, ExitCode: 3, Stderr: "connecting\n\nERROR: db down\n  at line 4"},
			want: `hook "bash seed.sh" exited with status 3; stderr: connecting | ERROR: db down | at line 4`,
		},
		{
			name: "exit keeps only the last lines",
			err:  &Error{Kind: KindExit, ExitCode: 1, Stderr: "a\nb\nc\nd"},
			want: `hook "bash seed.sh" exited with status 1; stderr: b | c | d`,
		},
		{
			name: "killed by a signal",
			err:  &Error{Kind: KindExit, ExitCode: -1, Detail: "signal: segmentation fault"},
			want: `hook "bash seed.sh" was killed: signal: segmentation fault`,
		},
		{
			name: "timeout",
			err:  &Error{Kind: KindTimeout, Stderr: "waiting for db", timeout: 2 * time.Second},
			want: `hook "bash seed.sh" timed out after 2s (process group killed); stderr: waiting for db`,
		},
		{
			name: "output with multi-line detail",
			err:  &Error{Kind: KindOutput, Detail: "value of \"A\" is null\nsecond line"},
			want: `hook "bash seed.sh" printed unusable output: value of "A" is null second line`,
		},
		{
			name: "cancelled",
			err:  &Error{Kind: KindCancelled},
			want: `hook "bash seed.sh" was cancelled (process group killed)`,
		},
		{
			name: "unknown kind",
			err:  &Error{Kind: "odd"},
			want: `hook "bash seed.sh" failed (odd)`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.err.name = name
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("Error() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestErrorStringBoundsStderr(t *testing.T) {
	e := &Error{Kind: KindExit, ExitCode: 1, Stderr: strings.Repeat("x", 5000) + "\nlast", name: "h"}
	got := e.Error()
	if !strings.HasSuffix(got, "x | last") || !strings.Contains(got, "; stderr: ...") {
		t.Errorf("Error() = %q, want the end of stderr after \"...\"", got)
	}
	if len(got) > 400 {
		t.Errorf("len(Error()) = %d, want the stderr part bounded", len(got))
	}
}

func TestCommandName(t *testing.T) {
	long := strings.Repeat("a", 100)
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"bash", "seed.sh"}, "bash seed.sh"},
		{[]string{"bash", "-c", "echo a\necho b"}, "bash -c echo a echo b"},
		{[]string{long}, strings.Repeat("a", 77) + "..."},
		{[]string{strings.Repeat("é", 50)}, strings.Repeat("é", 38) + "..."}, // cut at a rune boundary
		{nil, ""},
	}
	for _, tc := range tests {
		got := commandName(tc.argv)
		if got != tc.want {
			t.Errorf("commandName(%q) = %q, want %q", tc.argv, got, tc.want)
		}
		if len(got) > maxNameLen {
			t.Errorf("commandName(%q) is %d bytes, want <= %d", tc.argv, len(got), maxNameLen)
		}
	}
}
