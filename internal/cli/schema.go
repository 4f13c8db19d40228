package cli

import (
	"context"
	"slices"
	"strings"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/schema"
)

func runSchema(_ context.Context, a *app, args []string) error {
	kinds := strings.Join(schemaKinds(), "|")
	fs := a.flags("schema", kinds)
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return invalidf("schema", "name one file kind: %s", kinds)
	}
	var b []byte
	var err error
	switch fs.Arg(0) {
	case "report":
		b = schema.Report
	case "normalized-trace":
		b = schema.NormalizedTrace
	case "history":
		b = schema.History
	case "labels":
		b = schema.Labels
	case "calibration":
		b = schema.Calibration
	default:
		b, err = spec.Schema(fs.Arg(0))
	}
	if err != nil {
		return withCode(ExitInvalid, "schema", err)
	}
	a.Out.Write(b)
	return nil
}

// schemaKinds are the operands of `ananke schema`.
func schemaKinds() []string {
	return slices.Concat(spec.SchemaKinds, []string{"report", "normalized-trace", "history", "labels", "calibration"})
}
