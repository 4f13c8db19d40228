package agui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ProtocolVersion is the protocol version this client implements.
const ProtocolVersion = "1.0"

// runState is where the stream is between runs.
type runState uint8

const (
	noRun runState = iota
	runActive
	runFinished
	runErrored
)

// verifier checks the order of the (expanded) events of one response with
// the rules of the official client (agui-protocol.md §5.3) and the spec's
// identity rules, and notices truncation.
type verifier struct {
	threadID, runID string // the input's

	state          runState
	runThread      string // the active run's RUN_STARTED ids
	runRun         string
	echoed, anyRun bool

	texts, tools, reasonMsgs, reasonSpans, steps, subagents, subagentsSeen set
	started                                                                set // every tool call started in the response
}

type set map[string]bool

func (s set) sorted() string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, "'"+k+"'")
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

func newVerifier(threadID, runID string) *verifier {
	v := &verifier{threadID: threadID, runID: runID, started: set{}}
	v.resetRun()
	return v
}

func (v *verifier) resetRun() {
	v.texts, v.tools, v.reasonMsgs, v.reasonSpans, v.steps, v.subagents, v.subagentsSeen = set{}, set{}, set{}, set{}, set{}, set{}, set{}
}

// lifecycle events a finished or errored run still accepts.
func (v *verifier) check(ev *Event, ps *problems) {
	switch {
	case v.state == noRun && ev.Type != RunStarted && ev.Type != RunError:
		ps.errorf(RuleOrder, "First event must be 'RUN_STARTED' (got '%s')", ev.Type)
		v.state = runActive // check the rest as if the run had started
	case v.state == runErrored && ev.Type != RunStarted:
		ps.errorf(RuleOrder, "Cannot send event type '%s': The run has already errored with 'RUN_ERROR'. No further events can be sent.", ev.Type)
		return
	case v.state == runFinished && ev.Type != RunStarted && ev.Type != RunError:
		ps.errorf(RuleOrder, "Cannot send event type '%s': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.", ev.Type)
		return
	}
	switch ev.Type {
	case RunStarted:
		v.runStarted(ev, ps)
	case RunFinished:
		v.runFinished(ev, ps)
	case RunError:
		v.state = runErrored
		v.resetRun()
	case TextMessageStart:
		v.open(v.texts, ev.MessageID, ps, "Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '%s' is already in progress. Complete it with 'TEXT_MESSAGE_END' first.")
	case TextMessageContent:
		v.need(v.texts, ev.MessageID, false, ps, "Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID '%s'. Start a text message with 'TEXT_MESSAGE_START' first.")
	case TextMessageEnd:
		v.need(v.texts, ev.MessageID, true, ps, "Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID '%s'. A 'TEXT_MESSAGE_START' event must be sent first.")
	case ToolCallStart:
		v.open(v.tools, ev.ToolCallID, ps, "Cannot send 'TOOL_CALL_START' event: A tool call with ID '%s' is already in progress. Complete it with 'TOOL_CALL_END' first.")
		v.started[ev.ToolCallID] = true
	case ToolCallArgs:
		v.need(v.tools, ev.ToolCallID, false, ps, "Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID '%s'. Start a tool call with 'TOOL_CALL_START' first.")
	case ToolCallEnd:
		v.need(v.tools, ev.ToolCallID, true, ps, "Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '%s'. A 'TOOL_CALL_START' event must be sent first.")
	case ToolCallResult:
		if !v.started[ev.ToolCallID] {
			ps.warnf(RuleToolCall, "TOOL_CALL_RESULT for tool call '%s', which this response never started", ev.ToolCallID)
		}
	case ReasoningStart:
		v.open(v.reasonSpans, ev.MessageID, ps, "Cannot send 'REASONING_START' event: A reasoning span with ID '%s' is already in progress.")
	case ReasoningEnd:
		v.need(v.reasonSpans, ev.MessageID, true, ps, "Cannot send 'REASONING_END' event: No active reasoning span found with ID '%s'.")
	case ReasoningMessageStart:
		v.open(v.reasonMsgs, ev.MessageID, ps, "Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID '%s' is already in progress.")
	case ReasoningMessageContent:
		v.need(v.reasonMsgs, ev.MessageID, false, ps, "Cannot send 'REASONING_MESSAGE_CONTENT' event: No active reasoning message found with ID '%s'.")
	case ReasoningMessageEnd:
		v.need(v.reasonMsgs, ev.MessageID, true, ps, "Cannot send 'REASONING_MESSAGE_END' event: No active reasoning message found with ID '%s'.")
	case StepStarted:
		key := ev.SubagentRunID + "\x00" + ev.StepName
		if v.steps[key] {
			ps.errorf(RuleOrder, "Step \"%s\" is already active for 'STEP_STARTED'", ev.StepName)
		}
		v.steps[key] = true
	case StepFinished:
		key := ev.SubagentRunID + "\x00" + ev.StepName
		if !v.steps[key] {
			ps.errorf(RuleOrder, "Cannot send 'STEP_FINISHED' for step \"%s\" that was not started", ev.StepName)
		}
		delete(v.steps, key)
	case SubagentStarted:
		switch {
		case v.subagents[ev.SubagentRunID]:
			ps.errorf(RuleOrder, "Cannot send 'SUBAGENT_STARTED': subagent '%s' is already active", ev.SubagentRunID)
		case v.subagentsSeen[ev.SubagentRunID]:
			ps.errorf(RuleOrder, "Cannot send 'SUBAGENT_STARTED': subagent id '%s' was already used in this run", ev.SubagentRunID)
		}
		v.subagents[ev.SubagentRunID], v.subagentsSeen[ev.SubagentRunID] = true, true
	case SubagentFinished, SubagentError:
		v.need(v.subagents, ev.SubagentRunID, true, ps, "Cannot send '"+ev.Type+"': No active subagent found with ID '%s'.")
	}
}

func (v *verifier) open(s set, id string, ps *problems, format string) {
	if s[id] {
		ps.errorf(RuleOrder, format, id)
	}
	s[id] = true
}

func (v *verifier) need(s set, id string, close bool, ps *problems, format string) {
	if !s[id] {
		ps.errorf(RuleOrder, format, id)
	}
	if close {
		delete(s, id)
	}
}

func (v *verifier) runStarted(ev *Event, ps *problems) {
	if v.state == runActive && v.anyRun {
		ps.errorf(RuleOrder, "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.")
	}
	v.state, v.anyRun = runActive, true
	v.runThread, v.runRun = ev.ThreadID, ev.RunID
	v.resetRun()
	if v.threadID != "" && ev.ThreadID != v.threadID {
		ps.mustf(RuleIdentity, "RUN_STARTED threadId '%s': every run carries the input's threadId '%s'", ev.ThreadID, v.threadID)
	}
	if ev.RunID == v.runID {
		v.echoed = true
	}
	checkVersion(ev.ProtocolVersion, ps)
}

func (v *verifier) runFinished(ev *Event, ps *problems) {
	open := []struct {
		what string
		s    set
	}{{"steps", v.steps}, {"text messages", v.texts}, {"reasoning messages", v.reasonMsgs},
		{"reasoning spans", v.reasonSpans}, {"tool calls", v.tools}, {"subagents", v.subagents}}
	for _, o := range open {
		if len(o.s) > 0 {
			ps.errorf(RuleOrder, "Cannot send 'RUN_FINISHED' while %s are still active: %s", o.what, o.s.sorted())
		}
	}
	if ev.ThreadID != v.runThread {
		ps.mustf(RuleIdentity, "RUN_STARTED and RUN_FINISHED must carry the input's threadId: RUN_FINISHED has '%s', RUN_STARTED '%s'", ev.ThreadID, v.runThread)
	}
	if ev.RunID != v.runRun {
		ps.mustf(RuleIdentity, "RUN_STARTED and RUN_FINISHED must agree on their runId: '%s' vs '%s'", v.runRun, ev.RunID)
	}
	v.state = runFinished
	v.resetRun()
}

// end checks the stream as a whole once it is over.
func (v *verifier) end(frames int, ps *problems) {
	ps.frame = 0
	switch {
	case frames == 0:
		ps.errorf(RuleTruncated, "the response ended without a terminal event: it carried no events at all")
	case v.state == noRun:
		// Only unknown or malformed events arrived: no run was delivered.
		ps.errorf(RuleTruncated, "the response ended without a terminal event: it carried no RUN_STARTED, RUN_FINISHED or RUN_ERROR")
	case v.state == runActive:
		ps.errorf(RuleTruncated, "the stream ended without a terminal event (RUN_FINISHED or RUN_ERROR): the run was cut off")
	}
	if v.anyRun && !v.echoed && v.runID != "" {
		ps.mustf(RuleIdentity, "no RUN_STARTED in the response echoes the input's runId '%s'", v.runID)
	}
}

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)\.(\d+)$`) })

// checkVersion warns about a producer version this client may not fully
// understand; the run is still served (spec: proceed and warn).
func checkVersion(declared string, ps *problems) {
	if declared == "" {
		return
	}
	m := versionRE().FindStringSubmatch(declared)
	if m == nil {
		ps.warnf(RuleVersion, "the producer declares protocolVersion '%s', which this client cannot interpret (it implements %s)", declared, ProtocolVersion)
		return
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major > 1 || (major == 1 && minor > 0) {
		ps.warnf(RuleVersion, "the producer declares protocolVersion %s, newer than the %s this client implements", declared, ProtocolVersion)
	}
}
