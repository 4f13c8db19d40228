package console

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// interruptLine is an interrupt as the -v tree shows it: `interrupt 0309f9…
// (tool_approval, charge_card call call_c7): "Charge 42 EUR?" (event
// #34)`.
func interruptLine(in *report.Interrupt) string {
	s := "interrupt " + describeInterrupt(in.ID, in.Reason, in.Tool, in.ToolCallID)
	if in.Message != "" {
		s += ": " + quote(in.Message, 80)
	}
	return s + fmt.Sprintf(" (event #%d)", in.Seq)
}

// resumeLine is a resume as the -v tree shows it: `resume: approve
// interrupt 0309f9… (tool_approval, charge_card call call_c7) → resolved,
// payload true`.
func resumeLine(r *report.Resume) string {
	s := fmt.Sprintf("resume: %s interrupt %s → %s", r.Answer, describeInterrupt(r.InterruptID, r.Reason, r.Tool, r.ToolCallID), r.Status)
	if len(r.Payload) > 0 {
		s += ", payload " + format.Short(string(r.Payload), 80)
	}
	return s
}

// describeInterrupt names an interrupt: its id, reason and the call it is
// about.
func describeInterrupt(id, reason, tool, callID string) string {
	var about []string
	if reason != "" {
		about = append(about, reason)
	}
	switch {
	case tool != "" && callID != "":
		about = append(about, tool+" call "+callID)
	case callID != "":
		about = append(about, "call "+callID)
	}
	if len(about) == 0 {
		return id
	}
	return id + " (" + strings.Join(about, ", ") + ")"
}
