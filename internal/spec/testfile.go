package spec

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/doubles/decl"
	gwdecl "github.com/ananke/action/internal/gateway/decl"
	"github.com/ananke/action/internal/vars"
)

// Turn types (docs/files.md). Each belongs to target types
// (TurnTargets): an MCP server plays only mcp:* turns.
const (
	TurnUser    = "user"
	TurnConnect = "agui:connect"
	TurnA2ASend = "a2a:send"       // version 1.1; a user message, named for A2A
	TurnMCPCall = "mcp:call"       // version 1.2; call one tool
	TurnMCPList = "mcp:list_tools" // version 1.2; list the server's tools
	TurnResume  = "resume"         // answer the pending interrupts (resume.go)
)

// TurnTypes lists the turn types, user (the default) first.
var TurnTypes = []string{TurnUser, TurnConnect, TurnA2ASend, TurnMCPCall, TurnMCPList, TurnResume}

// TurnTargets maps each target type to the turn types it plays.
var TurnTargets = map[string][]string{
	TargetAGUI:   {TurnUser, TurnConnect, TurnResume},
	TargetA2A:    {TurnUser, TurnA2ASend},
	TargetMCP:    {TurnMCPCall, TurnMCPList},
	TargetOpenAI: {TurnUser},
	TargetHTTP:   {TurnUser},
}

// Test is one test file (*.ananke.yaml). A file holds one test.
type Test struct {
	Path string
	// Pos is where the test is declared: the start of its file, or its
	// line of a dataset (*.ananke.jsonl).
	Pos   diag.Pos
	ID    string // stable identifier; default: path without extension
	Name  vars.Name
	Tags  []vars.Name
	Skip  string // reason; non-empty means the test is skipped
	Hooks []Hook
	// After are hooks run after each attempt, whatever its verdict, with
	// the attempt's result as JSON on stdin.
	After   []Hook
	History []Message
	Tools   []ClientTool
	Turns   []Turn
	Assert  *assertion.Block
	// ForwardedProps, when set, are sent as RunAgentInput.forwardedProps,
	// over the target's (a dataset case's options).
	ForwardedProps vars.Value
	// Stability overrides the command line and the config for this test.
	Stability Stability
	// Simulator, when set, makes the test dynamic: after the scripted
	// turns (if any), the config's model plays the user for up to
	// MaxTurns turns and SimulatorTimeoutMs, until every checkpoint is
	// reached.
	Simulator          *Simulator
	MaxTurns           int
	SimulatorTimeoutMs int64
	Checkpoints        []Checkpoint
	// OnInterrupt is how a dynamic test answers the interrupts its agent
	// ends a run with before the next simulated turn: OnInterruptError
	// (the default), OnInterruptApprove, OnInterruptReject or
	// OnInterruptSimulator.
	OnInterrupt string
	// Source, when set, is a recorded run of another runtime the test
	// asserts on instead of talking to the target (no turns).
	Source *Source
	// OnMissingCapability is what becomes of an assertion whose trace
	// lacks a capability it needs: MissingSkip or MissingError ("": the
	// config's).
	OnMissingCapability string
	// Quarantine is the config's quarantine entry that names the test, set
	// once the suite is loaded (nil: not quarantined): it runs and reports,
	// but never decides the run's verdict.
	Quarantine *Quarantine
	// Gateway is what the model gateway does for this test (its faults;
	// docs/gateway.md); nil when the test says nothing of it.
	Gateway *gwdecl.Test
	// Doubles are the tool doubles' answers of this test and of its turns
	// (docs/doubles.md), over the config's; nil when it gives none.
	Doubles *decl.Plan
	// NoBackend is a test file's backend: false: its agent calls neither
	// the tool doubles nor the model gateway, so the test is left out of
	// the backend (UsesBackend, docs/backend.md).
	NoBackend bool
	// Attack, when set, makes the test an attack run: a copy of a test of
	// the suite with one attack's payload planted in one of its channels
	// (internal/attack; docs/attacks.md). No file sets it.
	Attack *plant.Plant

	// sessions are the sessions a claude-transcript source names, until
	// the suite is loaded; expand makes a test of each (expandSessions).
	sessions []session
	expand   bool
}

// Hook is a command run before the turns; its stdout JSON sets variables.
type Hook struct {
	Pos       diag.Pos
	Cmd       []vars.Template
	TimeoutMs int64
	// Output, when set, is the hook's output read from a fixture file
	// (output_file) instead of a command's stdout; Cmd is then empty.
	Output     map[string]string
	OutputFile string
}

// Message is one history message placed before the first turn.
type Message struct {
	Pos     diag.Pos
	Role    string
	Content vars.Template
	// Parts, when set, are the content as a list of parts (user messages
	// only); Content is then their text.
	Parts []Part
}

// Turn is one scripted turn.
type Turn struct {
	Pos   diag.Pos
	Index int
	Type  string
	User  vars.Template // for TurnUser and TurnA2ASend; with Parts, their text
	// Parts, when set, are the message as a list of parts: texts and
	// attachments.
	Parts []Part
	// Tool and Arguments are an mcp:call turn's tool and its arguments (a
	// mapping whose strings may hold ${...}; zero: none).
	Tool      vars.Template
	Arguments vars.Value
	// Resume is a resume turn's answers to the pending interrupts.
	Resume []ResumeEntry
	Assert *assertion.Block
	// typePos is where the type is written (zero: the default).
	typePos diag.Pos
	// doubles are the turn's answers, until the test's plan takes them.
	doubles decl.Answers
}

// ClientTool is a tool Ananke advertises to the agent and answers itself.
type ClientTool struct {
	Pos         diag.Pos
	Name        vars.Name
	Description vars.Template
	Parameters  vars.Value
	// Exactly one of Result and Results is set.
	Result  *vars.Value
	Results []ToolResult
}

// ToolResult is one entry of a client tool's results: the first entry whose
// args_match all match a call answers it.
type ToolResult struct {
	Pos       diag.Pos
	ArgsMatch []assertion.ArgMatch
	Result    vars.Value
}

var (
	testFields = append([]string{"version", "name", "id", "tags", "skip", "hooks", "after", "history", "tools", "turns", "assert",
		"simulator", "max_turns", "timeout_ms", "checkpoints", "on_interrupt", "source", "assertions", "on_missing_capability", "gateway", "doubles", "backend"}, stabilityFields...)
	hookFields    = []string{"cmd", "output_file", "timeout_ms"}
	messageFields = []string{"role", "content"}
	turnFields    = []string{"type", "user", "tool", "arguments", "resume", "assert", "doubles"}
	toolFields    = []string{"name", "description", "parameters", "result", "result_file", "results"}
	resultFields  = []string{"args_match", "result", "result_file"}
	historyRoles  = []string{"user", "assistant", "system", "developer"}
)

func (l *loader) test(doc *yaml.Node) *Test {
	t := &Test{Path: l.File, Pos: diag.Pos{File: l.File, Line: 1, Col: 1}}
	f, ok := l.Fields(doc, "test", testFields)
	if !ok {
		return t
	}
	l.Version(f, doc)
	l.Require(doc, f, "test", "name")
	_, turns := f["turns"]
	_, sim := f["simulator"]
	if p, ok := f["source"]; ok {
		t.Source, t.sessions, t.expand = l.source(p.Val, f)
	} else if !turns && !sim {
		l.Errorf(doc, "test is missing required field \"turns\" (or a simulator, or a source)")
	}
	if p, ok := f["on_missing_capability"]; ok {
		t.OnMissingCapability = l.missingPolicy(p.Val, "on_missing_capability")
	}
	if p, ok := f["name"]; ok {
		t.Name, _ = l.Name(p.Val, "name")
	}
	if p, ok := f["id"]; ok {
		if id, ok := l.Name(p.Val, "id"); ok {
			t.ID = id.Value
		}
	}
	t.Tags = l.tags(f)
	if p, ok := f["skip"]; ok {
		if reason, node, ok := l.Text(p.Val, "skip"); ok {
			if node.ShortTag() == "!!bool" {
				l.Errorf(node, "skip takes a reason: write skip: \"why this test is skipped\"")
			}
			t.Skip = reason
		}
	}
	if p, ok := f["hooks"]; ok {
		t.Hooks = l.hooks(p.Val, "hooks")
	}
	if p, ok := f["after"]; ok {
		t.After = l.hooks(p.Val, "after")
	}
	if p, ok := f["history"]; ok {
		items, _ := l.List(p.Val, "history")
		for i, item := range items {
			t.History = append(t.History, l.message(item, decode.Index("history", i)))
		}
	}
	if p, ok := f["tools"]; ok {
		t.Tools = l.clientTools(p.Val)
	}
	if p, ok := f["turns"]; ok {
		items, _ := l.List(p.Val, "turns")
		if items != nil && len(items) == 0 {
			l.Errorf(l.DerefQuiet(p.Val), "turns is empty: a test needs at least one turn")
		}
		for i, item := range items {
			t.Turns = append(t.Turns, l.turn(item, i))
		}
	}
	if p, ok := f["assert"]; ok {
		t.Assert = assertion.ReadBlock(l.Decoder, p.Val, "assert")
	}
	if p, ok := f["assertions"]; ok {
		// the list of named assertions, beside or instead of assert.
		if v := assertion.ReadVocabulary(l.Decoder, p.Val, "assertions"); v != nil {
			if t.Assert == nil {
				t.Assert = &assertion.Block{Pos: v.Pos}
			}
			t.Assert.Includes = append(t.Assert.Includes, v.Includes...)
		}
	}
	t.Stability = l.stability(f, "")
	l.dynamic(f, doc, t)
	l.testGateway(f, t)
	t.Doubles = l.testDoubles(f, t)
	l.testBackend(f, t)
	return t
}

// tags reads a test's tags: one name or a list.
func (l *loader) tags(f map[string]decode.Pair) []vars.Name {
	p, ok := f["tags"]
	if !ok {
		return nil
	}
	var out []vars.Name
	items, _ := l.OneOrList(p.Val, "tags")
	for i, item := range items {
		if tag, ok := l.Name(item, decode.Index("tags", i)); ok {
			out = append(out, tag)
		}
	}
	return out
}

// hooks reads a list of hooks.
func (l *loader) hooks(n *yaml.Node, what string) []Hook {
	items, _ := l.List(n, what)
	var out []Hook
	for i, item := range items {
		out = append(out, l.hook(item, decode.Index(what, i)))
	}
	return out
}

func (l *loader) hook(n *yaml.Node, what string) Hook {
	h := Hook{TimeoutMs: DefaultHookTimeoutMs}
	f, ok := l.Fields(n, what, hookFields)
	if !ok {
		return h
	}
	h.Pos = l.Pos(l.DerefQuiet(n))
	cmd, hasCmd := f["cmd"]
	out, hasOut := f["output_file"]
	switch {
	case hasCmd && hasOut:
		l.Errorf(out.Key, "%s: set cmd or output_file, not both", what)
	case hasOut:
		h.Output, _ = l.hookOutput(out.Val, what+".output_file")
		h.OutputFile = out.Val.Value
		if h.Output == nil {
			h.Output = map[string]string{} // reported; never run as a command
		}
	default:
		l.Require(n, f, what, "cmd")
		if hasCmd {
			h.Cmd = l.Argv(cmd.Val, what+".cmd")
		}
	}
	if p, ok := f["timeout_ms"]; ok {
		h.TimeoutMs, _ = l.Integer(p.Val, what+".timeout_ms", 1, math.MaxInt64)
	}
	return h
}

func (l *loader) message(n *yaml.Node, what string) Message {
	var m Message
	f, ok := l.Fields(n, what, messageFields)
	if !ok {
		return m
	}
	m.Pos = l.Pos(l.DerefQuiet(n))
	l.Require(n, f, what, "role", "content")
	if p, ok := f["role"]; ok {
		if s, node, ok := l.Text(p.Val, what+".role"); ok {
			m.Role = s
			if !slices.Contains(historyRoles, s) {
				l.Errorf(node, "%s.role %q is not one of user, assistant, system, developer", what, s)
			}
		}
	}
	if p, ok := f["content"]; ok {
		m.Content, m.Parts = l.userMessage(p.Val, what+".content")
		if m.Parts != nil && m.Role != "" && m.Role != "user" {
			l.Errorf(l.DerefQuiet(p.Val), "%s: only a user message may be a list of parts; this %s message must be text", what, m.Role)
		}
	}
	return m
}

func (l *loader) turn(n *yaml.Node, i int) Turn {
	what := decode.Index("turns", i)
	t := Turn{Index: i, Type: TurnUser}
	f, ok := l.Fields(n, what, turnFields)
	if !ok {
		return t
	}
	t.Pos = l.Pos(l.DerefQuiet(n))
	if p, ok := f["type"]; ok {
		t.Type = l.turnType(p.Val, what)
		t.typePos = l.Pos(l.DerefQuiet(p.Val))
	}
	p, hasUser := f["user"]
	rs, hasResume := f["resume"]
	if hasResume && !t.typePos.IsValid() {
		t.Type = TurnResume
	}
	switch {
	case t.Type == "":
	case t.Type == TurnResume && hasUser:
		l.Errorf(p.Key, "%s: a resume turn answers the pending interrupts and sends no message; remove \"user\" (or send it in a turn of its own)", what)
	case (t.Type == TurnUser || t.Type == TurnA2ASend) && !hasUser:
		l.Errorf(l.DerefQuiet(n), "%s is missing required field \"user\" (the message to send)", what)
	case t.Type != TurnUser && t.Type != TurnA2ASend && hasUser:
		l.Errorf(p.Key, "%s: an %s turn sends no message; remove \"user\"", what, t.Type)
	case hasUser:
		t.User, t.Parts = l.userMessage(p.Val, what+".user")
	}
	switch {
	case t.Type == TurnResume && !hasResume:
		l.Errorf(l.DerefQuiet(n), "%s is missing required field \"resume\" (the answers to the pending interrupts)", what)
	case t.Type != TurnResume && hasResume && t.Type != "":
		l.Errorf(rs.Key, "%s: resume is for resume turns; this turn is %s (leave type out)", what, t.Type)
	case hasResume:
		t.Resume = l.resume(rs.Val, what+".resume")
	}
	l.mcpCall(n, f, what, &t)
	if p, ok := f["assert"]; ok {
		t.Assert = assertion.ReadBlock(l.Decoder, p.Val, what+".assert")
	}
	t.doubles = l.turnDoubles(f, what)
	return t
}

// turnType reads a turn's type: one of TurnTypes, within the file's
// version ("" when it is none).
func (l *loader) turnType(n *yaml.Node, what string) string {
	s, node, ok := l.Text(n, what+".type")
	if !ok {
		return ""
	}
	switch s {
	case TurnUser, TurnConnect, TurnResume:
	case TurnA2ASend:
		l.Since(node, decode.MinorA2A, "turn type "+s)
	case TurnMCPCall, TurnMCPList:
		l.Since(node, decode.MinorMCP, "turn type "+s)
	default:
		l.Errorf(node, "%s.type %q is not supported (supported: %s)", what, s, quoteAll(TurnTypes))
		return ""
	}
	return s
}

// mcpCall reads an mcp:call turn's tool and arguments, which no other
// turn takes.
func (l *loader) mcpCall(n *yaml.Node, f map[string]decode.Pair, what string, t *Turn) {
	if t.Type != TurnMCPCall {
		for _, k := range []string{"tool", "arguments"} {
			if p, ok := f[k]; ok && t.Type != "" {
				l.Errorf(p.Key, "%s: %s is for mcp:call turns; this turn is %s%s", what, k, t.Type, typeHint(t))
			}
		}
		return
	}
	l.Require(n, f, what+" (mcp:call)", "tool")
	if p, ok := f["tool"]; ok {
		if tool, ok := l.Template(p.Val, what+".tool"); ok {
			if tool.Raw == "" {
				l.Errorf(l.DerefQuiet(p.Val), "%s.tool must name a tool", what)
			}
			t.Tool = tool
		}
	}
	if p, ok := f["arguments"]; ok {
		t.Arguments = l.object(p.Val, what+".arguments")
	}
}

// typeHint suggests the type of a turn that left it out.
func typeHint(t *Turn) string {
	if t.typePos.IsValid() {
		return ""
	}
	return " (the default); write type: mcp:call"
}

// quoteAll renders strings as a quoted, comma-separated list.
func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// result reads a result or a result_file (not both).
func (l *loader) result(f map[string]decode.Pair, what string) (vars.Value, bool) {
	r, hasResult := f["result"]
	file, hasFile := f["result_file"]
	switch {
	case hasResult && hasFile:
		l.Errorf(file.Key, "%s: set result or result_file, not both", what)
	case hasFile:
		return l.fixture(file.Val, what+".result_file")
	case hasResult:
		return l.Value(r.Val, what+".result")
	}
	return vars.Value{}, false
}

func (l *loader) clientTools(n *yaml.Node) []ClientTool {
	items, _ := l.List(n, "tools")
	var out []ClientTool
	seen := map[string]diag.Pos{}
	for i, item := range items {
		what := decode.Index("tools", i)
		f, ok := l.Fields(item, what, toolFields)
		if !ok {
			continue
		}
		ct := ClientTool{Pos: l.Pos(l.DerefQuiet(item))}
		l.Require(item, f, what, "name")
		if p, ok := f["name"]; ok {
			if ct.Name, ok = l.Name(p.Val, what+".name"); ok {
				if first, dup := seen[ct.Name.Value]; dup {
					l.Diags.Add(ct.Name.Pos, "%s: tool %q is declared twice (first at line %d)", what, ct.Name.Value, first.Line)
				}
				seen[ct.Name.Value] = ct.Name.Pos
			}
		}
		if p, ok := f["description"]; ok {
			ct.Description, _ = l.Template(p.Val, what+".description")
		}
		if p, ok := f["parameters"]; ok {
			ct.Parameters = l.object(p.Val, what+".parameters")
		}
		l.toolResults(item, f, what, &ct)
		out = append(out, ct)
	}
	return out
}

func (l *loader) toolResults(n *yaml.Node, f map[string]decode.Pair, what string, ct *ClientTool) {
	rs, hasResults := f["results"]
	_, hasResult := f["result"]
	_, hasFile := f["result_file"]
	switch {
	case hasResults && (hasResult || hasFile):
		l.Errorf(rs.Key, "%s: set result (or result_file) or results, not both", what)
	case !hasResult && !hasFile && !hasResults:
		l.Errorf(l.DerefQuiet(n), "%s needs a result, result_file or results to answer the agent with", what)
	case !hasResults:
		if v, ok := l.result(f, what); ok {
			ct.Result = &v
		}
	default:
		items, _ := l.List(rs.Val, what+".results")
		if items != nil && len(items) == 0 {
			l.Errorf(l.DerefQuiet(rs.Val), "%s.results is empty", what)
		}
		for j, item := range items {
			w := decode.Index(what+".results", j)
			rf, ok := l.Fields(item, w, resultFields)
			if !ok {
				continue
			}
			tr := ToolResult{Pos: l.Pos(l.DerefQuiet(item)), ArgsMatch: assertion.ReadArgsMatch(l.Decoder, rf, w)}
			_, hasResult := rf["result"]
			_, hasFile := rf["result_file"]
			if !hasResult && !hasFile {
				l.Errorf(l.DerefQuiet(item), "%s is missing required field \"result\" (or \"result_file\")", w)
			}
			tr.Result, _ = l.result(rf, w)
			ct.Results = append(ct.Results, tr)
		}
	}
}
