package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and commit are stamped at build time by releases and the action
// image:
//
//	-ldflags "-X github.com/ananke/action/internal/cli.version=v1.2.3
//	          -X github.com/ananke/action/internal/cli.commit=<full sha>"
var version, commit string

// Version is this build's version: the stamped value, else the module
// version `go install …@v1.2.3` recorded, else "dev".
func Version() string {
	v, _ := resolveVersion(version, commit, readBuildInfo())
	return v
}

func readBuildInfo() *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return bi
}

// resolveVersion prefers the stamped values and falls back to what the Go
// toolchain recorded in the binary: the module version of `go install
// …@version`, and the VCS revision of a build inside a git checkout ("+dirty"
// when the tree had changes). An unknown commit is "".
func resolveVersion(stampedVersion, stampedCommit string, bi *debug.BuildInfo) (v, c string) {
	v, c = stampedVersion, stampedCommit
	if bi == nil {
		if v == "" {
			v = "dev"
		}
		return v, c
	}
	if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	if v == "" {
		v = "dev"
	}
	if c == "" {
		var modified bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				c = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if c != "" && modified {
			c += "+dirty"
		}
	}
	return v, c
}

func runVersion(_ context.Context, a *app, args []string) error {
	fs := a.flags("version", "")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(a.Out, versionLine(resolveVersion(version, commit, readBuildInfo())))
	return nil
}

// versionLine is what `ananke version` prints:
// "ananke v1.2.3 (commit 0123abc…, go1.26.11 linux/amd64)".
func versionLine(v, c string) string {
	build := fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if c != "" {
		build = "commit " + c + ", " + build
	}
	return fmt.Sprintf("ananke %s (%s)", v, build)
}
