package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time with
// -ldflags "-X github.com/ananke/action/internal/cli.version=v1.2.3".
var version = ""

// Version is this build's version: the linker-set value, else the module
// version `go install` recorded, else "dev".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func runVersion(_ context.Context, a *app, args []string) int {
	fs := a.flags("version", "")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	fmt.Fprintf(a.Out, "ananke %s (%s %s/%s)\n", Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return ExitPass
}
