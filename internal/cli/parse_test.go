package cli

import (
	"strings"
	"testing"
)

// TestFlagsAnywhere: flags may follow the paths, `--` ends them, short and
// long names are one flag.
func TestFlagsAnywhere(t *testing.T) {
	dir := copySuite(t, "quickstart")
	r := run(t, dir, nil, "run", "weather.ananke.yaml", "-v", "--parallel", "2", "-o", t.TempDir())
	if r.code != ExitPass || !strings.Contains(plain(r.out), "PASS weather in Paris uses the weather tool") || !strings.Contains(plain(r.out), "├─") {
		t.Errorf("flags after the path: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	r = run(t, dir, nil, "run", "--verbose", "weather.ananke.yaml", "--report-dir", t.TempDir())
	if r.code != ExitPass || !strings.Contains(plain(r.out), "├─") {
		t.Errorf("--verbose: exit %d\n%s", r.code, r.out)
	}
	r = run(t, dir, nil, "validate", "--", "-v")
	if all := r.out + r.errOut; r.code != ExitInvalid || !strings.Contains(all, "-v: no such file or directory") || strings.Contains(all, "flag") {
		t.Errorf("after --, -v is a path: exit %d %q", r.code, all)
	}
}

// TestUnknownFlag names the nearest flag, and no flag when none is close.
func TestUnknownFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--verbos"}, "did you mean --verbose?"},
		{[]string{"run", "tests/", "--paralel", "2"}, "did you mean --parallel?"},
		{[]string{"run", "--fail-fst"}, "did you mean --fail-fast?"},
		{[]string{"diff", "--formt", "markdown"}, "did you mean --format?"},
		{[]string{"merge", "--report"}, "did you mean --report-dir?"},
		{[]string{"run", "--zzzzzz"}, ""},
	} {
		r := run(t, "", nil, tc.args...)
		if r.code != ExitInvalid || !strings.Contains(r.errOut, "ananke "+tc.args[0]+": unknown flag ") {
			t.Errorf("%q: exit %d %q", tc.args, r.code, r.errOut)
			continue
		}
		if tc.want == "" && strings.Contains(r.errOut, "did you mean") || !strings.Contains(r.errOut, tc.want) {
			t.Errorf("%q: %q; want %q", tc.args, r.errOut, tc.want)
		}
		if !strings.Contains(r.errOut, "Run 'ananke "+tc.args[0]+" -h' for its flags.") {
			t.Errorf("%q: no pointer to -h in %q", tc.args, r.errOut)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	for _, arg := range []string{"--version", "-version"} {
		if r := run(t, "", nil, arg); r.code != ExitPass || !strings.HasPrefix(r.out, "ananke ") {
			t.Errorf("%s: exit %d %q", arg, r.code, r.out)
		}
	}
}

// TestHelpPairsNames: a flag's short and long names are one help entry.
func TestHelpPairsNames(t *testing.T) {
	r := run(t, "", nil, "run", "-h")
	for _, want := range []string{"  -v, --verbose\n", "  -o, --report-dir dir\n", "  -c, --config file\n", "  --parallel N\n", "(default \"ananke-report\")", "(default 1)"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("run -h lacks %q:\n%s", want, r.out)
		}
	}
	if strings.Count(r.out, "verbose") != 1 {
		t.Errorf("--verbose listed more than once:\n%s", r.out)
	}
}
