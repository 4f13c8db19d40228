package registry

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// aguiProtocol: an AG-UI agent, one run per turn plus a follow-up run per
// round of client tools (docs/protocol.md).
var aguiProtocol = engine.Protocol{
	Open: openAGUI,
	Words: engine.Words{None: "no RUN_ERROR", NoneMessage: "the agent sent no RUN_ERROR", Name: "RUN_ERROR",
		Message: "the agent sent RUN_ERROR: ", Code: " (code %s)", Conformance: "a stream that follows the AG-UI protocol"},
	Replayed: &trace.Source{Adapter: "ag-ui", Mode: "replay", Capabilities: capability.AGUI},
}

// openAGUI resolves the AG-UI fields of the target and of the test into a
// session.
func openAGUI(a *engine.Setup) target.Session {
	tg, t := a.Target, a.Test
	o := agui.SessionOptions{
		ThreadID:        a.Str(tg.ThreadID),
		State:           t.Attack.JSON(plant.State, "state", a.JSON(tg.State, "{}")), // an attack run's payload (plant.State)
		ForwardedProps:  mergeObjects(a.JSON(tg.ForwardedProps, "{}"), a.JSON(t.ForwardedProps, "{}")),
		ProtocolVersion: tg.ProtocolVersion,
		MaxFollowups:    tg.MaxFollowups,
		RunTimeout:      time.Duration(tg.TimeoutMs) * time.Millisecond,
		Answers:         map[string]func(string) (string, bool){},
		NewID:           a.NewID,
		Now:             a.Now,
	}
	header, endpoint := a.Header(), a.Endpoint()
	for _, m := range a.History() {
		// A fresh id per test, as for every message: producers with memory
		// store messages by id, and a shared id would merge the histories
		// of tests running in parallel.
		o.History = append(o.History, agui.Message{ID: a.NewID(), Role: m.Role, Content: agui.Content(m.Text, m.Parts, tg.ProtocolVersion)})
	}
	for _, ct := range t.Tools {
		o.Tools = append(o.Tools, agui.Tool{Name: ct.Name.Value, Description: a.Str(ct.Description), Parameters: a.JSON(ct.Parameters, `{"type":"object","properties":{}}`)})
		o.Answers[ct.Name.Value] = answer(a, ct)
	}
	o.Client = &agui.Client{Endpoint: endpoint, Header: header, HTTP: a.HTTP, MaxEventSize: tg.MaxEventBytes,
		Strict: tg.StrictProtocol, Now: a.Now}
	return agui.NewSession(o)
}

// answer is how Ananke answers client tool ct: its result, or the result
// of the first results entry whose args_match all match the call's
// arguments (false when none does). An attack run's payload is planted in
// each (plant.ToolResult).
func answer(a *engine.Setup, ct spec.ClientTool) func(args string) (string, bool) {
	name := ct.Name.Value
	result := func(v vars.Value) string { return plantResult(a.Test.Attack, name, a.Text(v)) }
	if ct.Result != nil {
		s := result(*ct.Result)
		return func(string) (string, bool) { return s, true }
	}
	type entry struct {
		args   []assertion.ArgMatch
		result string
	}
	var entries []entry
	for _, re := range ct.Results {
		entries = append(entries, entry{args: a.Args(re.ArgsMatch), result: result(re.Result)})
	}
	return func(args string) (string, bool) {
		for _, e := range entries {
			if assertion.ArgsMatch(args, e.args) {
				return e.result, true
			}
		}
		return "", false
	}
}

// plantResult is client tool name's answer s with an attack run's payload
// planted, when p plants there: into the JSON of an object or an array
// (plant.Into), appended to any other text — a scalar's JSON text too,
// which the agent reads as text.
func plantResult(p *plant.Plant, name, s string) string {
	if !p.At(plant.ToolResult, name) {
		return s
	}
	if t := strings.TrimSpace(s); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return string(p.JSON(plant.ToolResult, name, json.RawMessage(t)))
	}
	return p.Text(plant.ToolResult, name, s)
}

// mergeObjects returns base with the keys of over set over it, when both
// are JSON objects; otherwise over when set, else base.
func mergeObjects(base, over json.RawMessage) json.RawMessage {
	var b, o map[string]json.RawMessage
	if json.Unmarshal(over, &o) != nil || len(o) == 0 {
		return base
	}
	if json.Unmarshal(base, &b) != nil || b == nil {
		return over
	}
	for k, v := range o {
		b[k] = v
	}
	out, err := json.Marshal(b)
	if err != nil {
		return over
	}
	return out
}
