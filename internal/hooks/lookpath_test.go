package hooks

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestLookPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses unix permission bits")
	}
	bin := t.TempDir()
	other := t.TempDir()
	exe := filepath.Join(bin, "hook")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Not executable: skipped, as by exec.LookPath.
	if err := os.WriteFile(filepath.Join(other, "hook"), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.ListSeparator)
	tests := []struct {
		name    string
		argv0   string
		env     []string
		want    string
		wantErr string
	}{
		{name: "found", argv0: "hook", env: []string{"PATH=" + bin}, want: exe},
		{name: "non-executable skipped", argv0: "hook", env: []string{"PATH=" + other + sep + bin}, want: exe},
		{name: "last PATH wins", argv0: "hook", env: []string{"PATH=" + bin, "PATH=" + other}, wantErr: "not found in PATH"},
		{name: "relative entries skipped", argv0: "hook", env: []string{"PATH=" + sep + "." + sep + "rel"}, wantErr: "not found in PATH"},
		{name: "no PATH", argv0: "hook", env: []string{"HOME=/root"}, wantErr: "PATH is not set"},
		{name: "slash: unchanged", argv0: "./seed.sh", env: nil, want: "./seed.sh"},
		{name: "absolute: unchanged", argv0: exe, env: nil, want: exe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lookPath(tc.argv0, tc.env)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("lookPath(%q) = %q, %v; want error containing %q", tc.argv0, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("lookPath(%q) = %q, %v; want %q", tc.argv0, got, err, tc.want)
			}
		})
	}
}
