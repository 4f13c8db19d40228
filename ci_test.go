package main

// Tests of the release engineering under .ci: the checks that keep the
// action image building and the script that points a release's action.yml
// at its published image. The scripts run for real, on temporary copies.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// script runs .ci/<name> with bash in dir and returns its exit code and
// combined output. GOTOOLCHAIN=local keeps the go command from fetching
// another toolchain.
func script(t *testing.T, dir, name string, args ...string) (int, string) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(".ci", name))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{abs}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	default:
		t.Fatalf("run %s: %v", name, err)
		return -1, ""
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGocheckFailsOnDrift makes the Dockerfile, go.mod and the README
// disagree and expects .ci/gocheck to stop before building anything, with a
// message that says what to change.
func TestGocheckFailsOnDrift(t *testing.T) {
	const (
		readme     = "# x\n\nOn a fresh machine with Go 1.26 or newer:\n"
		dockerfile = "FROM --platform=$BUILDPLATFORM golang:%s AS build\nRUN go build\n\nFROM alpine:3.22\n"
	)
	dockerFrom := func(image string) string { return strings.Replace(dockerfile, "%s", image, 1) }
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "a dependency moved go.mod past the Dockerfile",
			files: map[string]string{
				"Dockerfile": dockerFrom("1.25.5-alpine"),
				"go.mod":     "module example.com/m\n\ngo 1.26.0\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
				"dep/go.mod": "module example.com/dep\n\ngo 1.26.0\n",
				"README.md":  readme,
			},
			want: []string{
				"gocheck: the Dockerfile builds with golang:1.25.5-alpine (Go 1.25.5, GOTOOLCHAIN=local) but go.mod requires go 1.26.0, so the action image would not build.",
				"Modules that need more than Go 1.25.5:\n  example.com/dep@v0.0.0 needs go 1.26.0",
			},
		},
		{
			name: "patch versions compare as numbers",
			files: map[string]string{
				"Dockerfile": dockerFrom("1.26.9-alpine"),
				"go.mod":     "module example.com/m\n\ngo 1.26.10\n",
				"README.md":  readme,
			},
			want: []string{"builds with golang:1.26.9-alpine (Go 1.26.9, GOTOOLCHAIN=local) but go.mod requires go 1.26.10"},
		},
		{
			name: "go.mod needs a Go newer than the machine's",
			files: map[string]string{
				"Dockerfile": dockerFrom("1.26.11-alpine"),
				"go.mod":     "module example.com/m\n\ngo 1.99.0\n",
				"README.md":  readme,
			},
			want: []string{"but go.mod requires go 1.99.0, so the action image would not build"},
		},
		{
			name: "a floating builder tag",
			files: map[string]string{
				"Dockerfile": dockerFrom("1.26-alpine"),
				"go.mod":     "module example.com/m\n\ngo 1.26.0\n",
				"README.md":  readme,
			},
			want: []string{"gocheck: Dockerfile: the builder image golang:1.26-alpine does not pin a Go release; write golang:X.Y.Z-alpine"},
		},
		{
			name: "no Go builder stage",
			files: map[string]string{
				"Dockerfile": "FROM alpine:3.22\n",
				"go.mod":     "module example.com/m\n\ngo 1.26.0\n",
				"README.md":  readme,
			},
			want: []string{"gocheck: Dockerfile: no builder stage 'FROM golang:X.Y.Z-alpine AS build'"},
		},
		{
			name: "the README states another minimum",
			files: map[string]string{
				"Dockerfile": dockerFrom("1.26.11-alpine"),
				"go.mod":     "module example.com/m\n\ngo 1.26.0\n",
				"README.md":  "On a fresh machine with Go 1.25 or newer:\n",
			},
			want: []string{`gocheck: README.md does not say "Go 1.26 or newer", the minimum go.mod's go line (1.26.0) sets`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			code, out := script(t, dir, "gocheck", dir)
			if code != 1 {
				t.Fatalf("gocheck exit = %d; want 1\n%s", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("gocheck output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "with go1.") {
				t.Errorf("gocheck started a build before the versions agreed:\n%s", out)
			}
		})
	}
}

// TestReleaseAction rewrites this repository's action.yml the way the
// release workflow does: exactly the image line changes, and main's
// action.yml builds from the Dockerfile (the script refuses anything else).
func TestReleaseAction(t *testing.T) {
	orig, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "action.yml")
	writeFiles(t, dir, map[string]string{"action.yml": string(orig)})

	const image = "docker://ghcr.io/ananke/action:v1.2.3-rc.1"
	if code, out := script(t, dir, "release-action", image, file); code != 0 {
		t.Fatalf("release-action = %d\n%s", code, out)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.Replace(orig, []byte("\n  image: Dockerfile\n"), []byte("\n  image: "+image+"\n"), 1); !bytes.Equal(got, want) || bytes.Equal(got, orig) {
		t.Errorf("release-action wrote\n%s\nwant\n%s", got, want)
	}

	// Run again: the file no longer builds from the Dockerfile.
	if code, out := script(t, dir, "release-action", image, file); code != 1 || !strings.Contains(out, `want exactly one "  image: Dockerfile" line under runs:, found 0`) {
		t.Errorf("release-action on a released action.yml = %d %q", code, out)
	}
	for _, bad := range []string{"", "ghcr.io/ananke/action:v1.2.3", "docker://ghcr.io/ananke/action:1.2.3", "docker://ghcr.io/ananke/action:v1", "docker://ghcr.io/ananke/action:v1.2.3;rm -rf /", "docker://GHCR.io/Ananke/action:v1.2.3"} {
		if code, out := script(t, dir, "release-action", bad, file); code != 1 || !strings.Contains(out, "want docker://<registry>/<name>:vX.Y.Z[-pre]") {
			t.Errorf("release-action %q = %d %q", bad, code, out)
		}
	}
}
