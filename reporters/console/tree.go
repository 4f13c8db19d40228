package console

import (
	"fmt"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// node is a branch of the -v tree: a turn, or the whole test, with the
// assertions judged there.
type node struct {
	label   string
	turn    *report.Turn // nil for the whole test and turns not run
	asserts []report.Assertion
}

// tree prints the shown attempt as a tree of its turns, as a dynamic
// test's is read: each turn's user message and reply, its tool
// calls and assertions, then the test-level assertions.
func (p *printer) tree(t *report.Test) {
	attempt := ""
	if t.Repeated() && t.Shown > 0 {
		// Which of the attempts the tree is, as the failure trees say.
		attempt = p.o.paint("dim", " ("+t.Attempts[t.Shown-1].Label()+")")
	}
	nodes := nodes(t)
	for i, n := range nodes {
		lead, child := branch(pad(1), i == len(nodes)-1)
		p.out(lead + n.label + attempt)
		p.leaves(child, t, n)
	}
}

// nodes groups the assertions by scope: one node per turn that ran, one
// per turn that never ran but has (skipped) assertions, and "whole test"
// last.
func nodes(t *report.Test) []*node {
	var out []*node
	byScope := map[string]*node{}
	for i := range t.Turns {
		turn := &t.Turns[i]
		n := &node{label: turnLabel(turn), turn: turn}
		out = append(out, n)
		byScope[fmt.Sprintf("turn[%d]", turn.Index)] = n
	}
	whole := &node{label: "whole test"}
	for _, a := range t.Assertions {
		n := byScope[a.Scope]
		switch {
		case n != nil:
		case a.Scope == "test":
			n = whole
		default:
			n = &node{label: clean(a.Scope) + " (not run)"}
			out = append(out, n)
			byScope[a.Scope] = n
		}
		n.asserts = append(n.asserts, a)
	}
	if len(whole.asserts) > 0 {
		out = append(out, whole)
	}
	return out
}

// turnLabel is `turn[1] "pay with my card" → "Payment declined"`.
func turnLabel(turn *report.Turn) string {
	user := "(agui:connect)"
	switch turn.Type {
	case "resume":
		user = "(" + turn.User + ")"
	case "agui:connect":
	default:
		user = quote(turn.User, 60) + attachments(turn)
	}
	reply := "(no text)"
	if turn.Text != "" {
		reply = quote(turn.Text, 60)
	}
	return clean(fmt.Sprintf("turn[%d] %s → %s", turn.Index, user, reply))
}

// leaves prints a node's tool calls, run errors and assertions.
func (p *printer) leaves(prefix string, t *report.Test, n *node) {
	var calls []report.Call
	var errs, extras []string
	var resumes []report.Resume
	var interrupts []report.Interrupt
	var models []report.ModelCall
	usage := ""
	if n.turn != nil {
		calls, errs, usage = n.turn.ToolCalls, n.turn.RunErrors, p.turnUsage(n.turn)
		models = n.turn.ModelCalls
		resumes, interrupts = n.turn.Resumes, n.turn.Interrupts
		if r := reasoningLine(n.turn); r != "" {
			extras = append(extras, p.o.paint("dim", r))
		}
		extras = append(extras, subagentLines(n.turn)...)
	}
	total, i := len(resumes)+len(extras)+len(calls)+len(models)+len(interrupts)+len(errs)+len(n.asserts), 0
	if usage != "" {
		total++
	}
	next := func() (lead, child string) {
		i++
		return branch(prefix, i == total)
	}
	for _, r := range resumes {
		lead, _ := next()
		p.out(lead + clean(resumeLine(&r)))
	}
	for _, x := range extras {
		lead, _ := next()
		p.out(lead + x)
	}
	for _, c := range calls {
		lead, _ := next()
		line := "tool " + clean(callLine(&c))
		if c.Served != nil && c.Served.Unanswered {
			line = p.o.paint(string(status.Warn), line)
		}
		p.out(lead + line)
	}
	for _, m := range models {
		lead, _ := next()
		line := clean(fmt.Sprintf("model %s  (+%dms)", format.ModelCall(&m), m.AtMs))
		if m.Error != "" {
			line = p.o.paint("error", line)
		}
		p.out(lead + line)
	}
	for _, in := range interrupts {
		lead, _ := next()
		p.out(lead + clean(interruptLine(&in)))
	}
	for _, e := range errs {
		lead, _ := next()
		p.out(lead + p.o.paint("error", "run error:") + " " + clean(e))
	}
	if usage != "" {
		lead, _ := next()
		p.out(lead + usage)
	}
	for _, a := range n.asserts {
		lead, child := next()
		// Details align with the file name, past the "✗ " mark.
		p.assertion(lead, child+"  ", a, failedIn(t, a))
		if a.Status == status.Pass && a.FailedRuns > 0 {
			p.firstFailure(child+"  ", t, a)
		}
	}
}

// branch returns the connector of a node under prefix and the prefix of
// its children: "├─ " and "│  ", or "└─ " and "   " for the last node.
func branch(prefix string, last bool) (lead, child string) {
	if last {
		return prefix + "└─ ", prefix + "   "
	}
	return prefix + "├─ ", prefix + "│  "
}
