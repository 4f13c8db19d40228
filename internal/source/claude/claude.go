// Package claude imports a Claude Code (or Claude Agent SDK) session
// transcript, the JSONL file under ~/.claude/projects/<cwd>/<session>.jsonl,
// as a trace, so that assertions can judge a session that already ran.
//
// Each line of the file becomes one event of the trace. A turn starts at each
// prompt the user typed; the assistant lines that follow give the turn its
// text, tool calls and run errors, and the user lines that carry tool results
// complete the calls. Subagent (sidechain) lines are kept as events but are
// not part of the conversation's turns.
package claude

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ananke/action/internal/trace"
)

// The adapter's name and version, as the trace's source reports them.
const (
	Adapter = "claude-transcript"
	Version = "1"
)

// Read parses the session transcript at path. display is the path as the user wrote it; it names
// events' origins ("display:LINE") and appears in errors.
func Read(path, display string) (*trace.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // display names the file
		}
		return nil, fmt.Errorf("read transcript %s: %w", display, err)
	}
	defer f.Close()
	return Parse(f, display)
}

// Parse is Read over a reader (for tests and fuzzing).
func Parse(r io.Reader, display string) (*trace.Trace, error) {
	lines, err := readLines(r, display)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: empty transcript", display)
	}
	b := newBuilder(display)
	for i := range lines {
		if err := b.add(&lines[i]); err != nil {
			return nil, err
		}
	}
	return b.finish()
}
