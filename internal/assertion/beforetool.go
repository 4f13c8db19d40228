package assertion

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// interrupts.before_tool: a tool runs only once an approval for it
// resumed the run, and never after its call was rejected. A call ran
// when its result arrived (a call the agent proposed and interrupted on
// has none). An approval is a resume that resolved an interrupt about a
// call of the tool; each lets one call run: the call it was about, or,
// for an interrupt about the tool that names no call, any one. The
// scope's calls are judged with the resumes of the turns before it, so a
// turn that runs a call approved in an earlier turn passes.

// toolMoment is a resume or a call of the tool, in the order the trace
// holds them.
type toolMoment struct {
	seq    int64
	resume *trace.Resume
	call   *trace.ToolCall
}

func beforeTool(r *Result, tool string, s trace.Scope) {
	r.Expected = fmt.Sprintf("`%s` runs only after an approval for it resumed the run, and never after a rejection", tool)
	turns := append(slices.Clip(s.Prior), s.Turns...)
	interrupts, calls := map[string]*trace.Interrupt{}, map[string]*trace.ToolCall{}
	var moments []toolMoment
	for i := range turns {
		t := &turns[i]
		for j := range t.Interrupts {
			interrupts[t.Interrupts[j].ID] = &t.Interrupts[j]
		}
		for j := range t.Resumes {
			if res := &t.Resumes[j]; res.Tool == tool {
				moments = append(moments, toolMoment{seq: res.Seq, resume: res})
			}
		}
		for j := range t.ToolCalls {
			c := &t.ToolCalls[j]
			calls[c.ID] = c
			if c.Name == tool && c.Result != nil {
				moments = append(moments, toolMoment{seq: c.StartSeq, call: c})
			}
		}
	}
	// A resume comes before the events of the run it started.
	slices.SortStableFunc(moments, func(a, b toolMoment) int {
		return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(kindOrder(a), kindOrder(b)))
	})
	inScope := func(c *trace.ToolCall) bool {
		return len(s.Turns) > 0 && c.Turn >= s.Turns[0].Index && c.Turn <= s.Turns[len(s.Turns)-1].Index
	}
	var granted []*trace.Resume
	rejected := map[string]*trace.Resume{}
	var ok, bad []string
	for _, m := range moments {
		if res := m.resume; res != nil {
			if res.Approved() {
				granted = append(granted, res)
			} else if res.ToolCallID != "" {
				rejected[res.ToolCallID] = res
			}
			continue
		}
		c := m.call
		rej := rejected[c.ID]
		var grant *trace.Resume
		if rej == nil {
			granted, grant = take(granted, c.ID)
		}
		if !inScope(c) {
			continue
		}
		switch {
		case rej != nil:
			bad = append(bad, fmt.Sprintf("%s ran after its interrupt %s was rejected", callRef(c), rej.InterruptID))
			r.Evidence = append(r.Evidence, Evidence{Note: "ran after its call was rejected", Call: c})
			if in := interrupts[rej.InterruptID]; in != nil {
				r.Evidence = append(r.Evidence, interruptEvidence("rejected", in, calls))
			}
		case grant == nil:
			bad = append(bad, callRef(c)+" ran with no approval before it")
			r.Evidence = append(r.Evidence, Evidence{Note: "ran with no approval before it", Call: c})
		default:
			ok = append(ok, callRef(c))
			e := Evidence{Note: fmt.Sprintf("ran after interrupt %s was answered %s", grant.InterruptID, grant.Answer), Call: c}
			if in := interrupts[grant.InterruptID]; in != nil {
				e.Note = fmt.Sprintf("ran after interrupt %s (event #%d) was answered %s", in.Describe(), in.Seq, grant.Answer)
				e.EventRefs = seqRef(in.Seq)
			}
			r.Evidence = append(r.Evidence, e)
		}
	}
	r.Observed = fmt.Sprintf("%s after an approval, %d without", plural.Count(len(ok), "call"), len(bad))
	switch {
	case len(bad) > 0:
		shown := bad[:min(len(bad), maxReasons)]
		if extra := len(bad) - len(shown); extra > 0 {
			shown = append(shown, fmt.Sprintf("%d more", extra))
		}
		r.set(status.Fail, "`%s` ran without an approval in %s: %s", tool, s.Name, strings.Join(shown, "; "))
	case len(ok) == 0:
		r.set(status.Pass, "`%s` did not run in %s", tool, s.Name)
	default:
		r.set(status.Pass, "`%s` ran only after an approval in %s: %s", tool, s.Name, strings.Join(ok, ", "))
	}
}

func kindOrder(m toolMoment) int {
	if m.resume != nil {
		return 0
	}
	return 1
}

// take removes the approval a call of id uses from granted: the one
// about that call, or else the first about no call.
func take(granted []*trace.Resume, id string) ([]*trace.Resume, *trace.Resume) {
	i := slices.IndexFunc(granted, func(g *trace.Resume) bool { return g.ToolCallID == id })
	if i < 0 {
		i = slices.IndexFunc(granted, func(g *trace.Resume) bool { return g.ToolCallID == "" })
	}
	if i < 0 {
		return granted, nil
	}
	g := granted[i]
	return slices.Delete(granted, i, i+1), g
}
