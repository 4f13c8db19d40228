package console

import (
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// transcript prints the shown attempt's conversation in full: each user
// message with its attachments, each tool call, and the whole reply (for
// ananke run -i, where the reply is what the user came to read).
func (p *printer) transcript(t *report.Test) {
	for i := range t.Turns {
		turn := &t.Turns[i]
		user := "(agui:connect)"
		if turn.Type != "agui:connect" {
			user = clean(turn.User)
		}
		p.line(1, p.o.paint("bold", "user:")+" "+user+attachments(turn))
		if r := reasoningLine(turn); r != "" {
			p.line(2, p.o.paint("dim", r))
		}
		for _, s := range subagentLines(turn) {
			p.line(2, s)
		}
		for _, c := range turn.ToolCalls {
			p.line(2, "tool "+clean(callLine(&c)))
		}
		for _, e := range turn.RunErrors {
			p.line(2, p.o.paint("error", "run error:")+" "+clean(e))
		}
		lines := strings.Split(strings.TrimRight(turn.Text, "\n"), "\n")
		if turn.Text == "" {
			lines = []string{p.o.paint("dim", "(no text)")}
		}
		p.line(1, p.o.paint("bold", "agent:")+" "+clean(lines[0]))
		for _, l := range lines[1:] {
			p.line(1, "       "+clean(l))
		}
		if len(turn.AgentFiles) > 0 {
			p.line(1, "       "+clean("+ ["+format.Attachments(turn.AgentFiles)+"]"))
		}
	}
}

// attachments is ` + [receipt.png (image/png, 2.1 KiB)]` for a turn that
// carried files.
func attachments(turn *report.Turn) string {
	if len(turn.Attachments) == 0 {
		return ""
	}
	return clean(" + [" + format.Attachments(turn.Attachments) + "]")
}
