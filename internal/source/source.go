// Package source reads the traces of tests that assert on a recorded run
// of another runtime (a test's `source:`), dispatching on its format to
// the adapter that maps it into Ananke's trace model.
package source

import (
	"context"
	"fmt"

	"github.com/ananke/action/internal/source/claude"
	"github.com/ananke/action/internal/source/nanoclaw"
	"github.com/ananke/action/internal/source/otlpfile"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Load reads the trace src names. Reading is local and quick; ctx is
// checked before it starts.
func Load(ctx context.Context, src *spec.Source) (*trace.Trace, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch src.Format {
	case spec.FormatClaude:
		return claude.ReadWith(src.Abs, src.Path, claude.Options{Strict: src.Strict})
	case spec.FormatNanoClaw:
		return nanoclaw.Read(nanoclaw.Options{Root: src.Abs, Display: src.Path, Group: src.Group, Session: src.Session, Task: src.Task})
	case spec.FormatOTLP:
		return otlpfile.Read(src.Abs, src.Path)
	}
	return nil, fmt.Errorf("format %q has no adapter", src.Format)
}
