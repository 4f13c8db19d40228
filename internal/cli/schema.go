package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/schema"
)

func runSchema(_ context.Context, a *app, args []string) int {
	kinds := strings.Join(schemaKinds(), "|")
	fs := a.flags("schema", kinds)
	if code, ok := a.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(a.Err, "ananke schema: name one file kind: %s\n", kinds)
		return ExitInvalid
	}
	var b []byte
	var err error
	switch fs.Arg(0) {
	case "report":
		b = schema.Report
	case "normalized-trace":
		b = schema.NormalizedTrace
	default:
		b, err = spec.Schema(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(a.Err, "ananke schema: %v\n", err)
		return ExitInvalid
	}
	a.Out.Write(b)
	return ExitPass
}

// schemaKinds are the operands of `ananke schema`.
func schemaKinds() []string {
	return slices.Concat(spec.SchemaKinds, []string{"report", "normalized-trace"})
}
