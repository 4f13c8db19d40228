// Package claude imports a Claude Code (or Claude Agent SDK) session
// transcript, the JSONL file under ~/.claude/projects/<cwd>/<session>.jsonl,
// as a trace, so that assertions can judge a session that already ran.
//
// Each line of the file becomes one event of the trace. A turn starts at each
// prompt the user typed; the assistant lines that follow give the turn its
// text, tool calls and run errors, and the user lines that carry tool results
// complete the calls. A session's subagents (the files Claude Code keeps
// under <session>/subagents/, or the sidechain lines of an older
// transcript) are read with it: their lines are events, interleaved by
// time, and their tool calls are the turn's, each naming its subagent.
package claude

import (
	"fmt"
	"io"

	"github.com/ananke/action/internal/trace"
)

// The adapter's name and version, as the trace's source reports them.
const (
	Adapter = "claude-transcript"
	Version = "1"
)

// Options say how a transcript is read.
type Options struct {
	// Strict makes a line that cannot be read an error. Otherwise the
	// line is left out, and the trace's notices say where and why.
	Strict bool
}

// Read parses the session transcript at path, strictly, with its
// subagents. display is the path as the user wrote it; it names events'
// origins ("display:LINE") and appears in errors.
func Read(path, display string) (*trace.Trace, error) {
	return ReadWith(path, display, Options{Strict: true})
}

// ReadWith is Read with options. A subagent's transcript read alone is
// read as the conversation it is (its prompt the task the main agent gave
// it), and a notice says so.
func ReadWith(path, display string, o Options) (*trace.Trace, error) {
	lines, err := readFile(path, display, o.Strict)
	if err != nil {
		return nil, err
	}
	b := newBuilder(display, o.Strict)
	session, agent, layout := isSubagentFile(path)
	if layout || allSidechain(lines) {
		var m meta
		if layout {
			_ = readMeta(path[:len(path)-len(".jsonl")]+".meta.json", &m) // it only names the agent better
		}
		if agent == "" || !layout {
			agent, session = firstAgent(lines)
		}
		b.alone, b.agent = true, agent
		b.tr.Notices = append(b.tr.Notices, trace.Notice{Message: aloneNote(display, agent, session, m, layout)})
		return b.build(lines)
	}
	subs, notes, err := subagents(path, display, o.Strict)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		b.tr.Notices = append(b.tr.Notices, trace.Notice{Message: n})
	}
	for _, s := range subs {
		if s.meta.ToolUseID != "" {
			b.spawnedBy[s.id] = s.meta.ToolUseID
		}
	}
	return b.build(merge(lines, subs))
}

// Parse reads one transcript from r, strictly (for tests and fuzzing).
func Parse(r io.Reader, display string) (*trace.Trace, error) {
	return parseWith(r, display, Options{Strict: true})
}

func parseWith(r io.Reader, display string, o Options) (*trace.Trace, error) {
	lines, err := readLines(r, display, o.Strict)
	if err != nil {
		return nil, err
	}
	b := newBuilder(display, o.Strict)
	if allSidechain(lines) {
		var session string
		b.alone = true
		b.agent, session = firstAgent(lines)
		b.tr.Notices = append(b.tr.Notices, trace.Notice{Message: aloneNote(display, b.agent, session, meta{}, false)})
	}
	return b.build(lines)
}

// build makes the trace of the lines.
func (b *builder) build(lines []line) (*trace.Trace, error) {
	if len(lines) == 0 {
		return nil, emptyError(b.display)
	}
	items, err := b.read(lines)
	if err != nil {
		return nil, err
	}
	for i := range items {
		b.add(&items[i])
	}
	return b.finish()
}

// firstAgent is the agent and session ids of the first line that names
// an agent.
func firstAgent(lines []line) (agent, session string) {
	for i := range lines {
		if lines[i].agent != "" {
			return lines[i].agent, lines[i].session
		}
	}
	return "subagent", ""
}

func emptyError(display string) error { return fmt.Errorf("%s: empty transcript", display) }
