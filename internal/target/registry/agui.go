package registry

import (
	"encoding/json"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
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
	for _, ct := range clientTools(a) {
		o.Tools = append(o.Tools, agui.Tool{Name: ct.Name, Description: ct.Description, Parameters: ct.Parameters})
		o.Answers[ct.Name] = ct.Answer
	}
	o.Client = &agui.Client{Endpoint: endpoint, Header: header, HTTP: a.HTTP, MaxEventSize: tg.MaxEventBytes,
		Strict: tg.StrictProtocol, Now: a.Now}
	return agui.NewSession(o)
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
