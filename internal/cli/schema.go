package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/spec"
)

func runSchema(_ context.Context, a *app, args []string) int {
	kinds := strings.Join(spec.SchemaKinds, "|")
	fs := a.flags("schema", kinds)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(a.Err, "ananke schema: name one file kind: %s\n", kinds)
		return ExitInvalid
	}
	b, err := spec.Schema(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(a.Err, "ananke schema: %v\n", err)
		return ExitInvalid
	}
	a.Out.Write(b)
	return ExitPass
}
