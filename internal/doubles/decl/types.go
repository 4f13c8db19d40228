package decl

import (
	"encoding/json"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// DefaultPath is where the doubles are served when the config names no
// path.
const DefaultPath = "/mcp"

// Faults an answer may play instead of a result (docs/doubles.md,
// "Faults").
const (
	// FaultTimeout holds the call unanswered until the agent gives up.
	FaultTimeout = "timeout"
	// FaultDrop closes the connection without a response.
	FaultDrop = "drop"
	// FaultMalformed answers with a response that is not a valid
	// tools/call result.
	FaultMalformed = "malformed"
)

// Faults lists the fault names, in the order docs/doubles.md gives them.
var Faults = []string{FaultTimeout, FaultDrop, FaultMalformed}

// Config is the config's doubles: section: where the tools are served
// and what they are.
type Config struct {
	Pos diag.Pos
	// Listen is the host:port the streamable HTTP server listens on; it
	// may read the environment (${ENV.DOUBLES_LISTEN}).
	Listen vars.Template
	// Path is the URL path of the MCP endpoint (DefaultPath when unset).
	Path  string
	Tools []*Tool
}

// Tool is one declared double.
type Tool struct {
	Pos         diag.Pos
	Name        string
	Description string
	// InputSchema is the JSON Schema of the arguments, as listed to the
	// agent ({"type":"object"} when the file gives none).
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema every result that is not an error
	// matches, checked at load; nil when none is declared.
	OutputSchema json.RawMessage
	// Answer is the config's default answer; nil when the tool has none
	// (each test must then answer it).
	Answer *Answer

	output *jsonschema.Schema
}

// Tool finds a declared tool by name.
func (c *Config) Tool(name string) *Tool {
	if c == nil {
		return nil
	}
	for _, t := range c.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Names lists the declared tools' names, in the file's order.
func (c *Config) Names() []string {
	if c == nil {
		return nil
	}
	out := make([]string, len(c.Tools))
	for i, t := range c.Tools {
		out[i] = t.Name
	}
	return out
}

// Answer is what a tool answers at one level (the config's default, a
// test's or a turn's): the first Match whose arguments match the call,
// else its own Reply when it has one.
type Answer struct {
	Pos   diag.Pos
	Reply *Reply // nil when the answer has only match entries
	Match []*Match

	// key is where the answer names its tool, what how messages name it.
	key  diag.Pos
	what string
}

// Match is one entry of an answer's match: list.
type Match struct {
	Pos diag.Pos
	// Args is the JSON object the call's arguments must contain: each of
	// its keys with an equal value (an object's own keys compared the same
	// way, recursively).
	Args  json.RawMessage
	Reply *Reply

	args map[string]any
}

// Reply is one way of answering: a result, possibly an error result and
// delayed, or a fault.
type Reply struct {
	Pos diag.Pos
	// Result is the result as JSON: a string is sent as text content, an
	// object as structured content and as its JSON text, anything else as
	// its JSON text. nil with a Fault.
	Result json.RawMessage
	// IsError marks the result as the tool's error (isError).
	IsError bool
	// LatencyMs delays the answer (or the fault).
	LatencyMs int64
	// Fault, when set, is played instead of a result: FaultTimeout,
	// FaultDrop or FaultMalformed.
	Fault string

	// at places the result's parts for the output schema's messages, and
	// what names it ("doubles.check_stock.result").
	at   locator
	what string
}

// Answers maps a tool's name to its answer at one level: a test's or a
// turn's.
type Answers map[string]*Answer

// Plan is what the doubles answer in one test: the test file's own
// answers and each scripted turn's (by turn index), over the config's
// defaults. A nil Plan leaves every call to the config's defaults.
type Plan struct {
	Test  Answers
	Turns map[int]Answers
	// Plant, when it plants in a double (plant.Double), is an attack run's
	// payload, planted in every result the tool answers
	// (docs/attacks.md); nil otherwise.
	Plant *plant.Plant
}

// NewPlan is the plan of a test that answers test and, by turn index,
// turns; nil when it answers nothing.
func NewPlan(test Answers, turns map[int]Answers) *Plan {
	p := &Plan{Test: test, Turns: map[int]Answers{}}
	for i, a := range turns {
		if len(a) > 0 {
			p.Turns[i] = a
		}
	}
	if len(p.Test) == 0 && len(p.Turns) == 0 {
		return nil
	}
	return p
}

// URL is the doubles' endpoint on addr, the address they are served on.
func (c *Config) URL(addr string) string { return "http://" + addr + c.Path }
