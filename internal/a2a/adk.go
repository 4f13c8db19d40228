package a2a

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/ananke/action/internal/trace"
)

// A2A has no tool-call events. ADK (Google's Agent Development Kit) sends
// its agents' calls as data parts: the part's metadata says
// {"adk_type": "function_call"} (or "function_response"), its data is
// {"id", "name", "args"} (or {"id", "name", "response"}). Some agents wrap
// the same objects instead: {"function_call": {…}}.
const (
	adkCall     = "function_call"
	adkResponse = "function_response"
)

// toolPart is one function_call or function_response data part.
type toolPart struct {
	kind     string // adkCall or adkResponse
	id, name string
	value    json.RawMessage // the call's args, or the response
	errText  string          // a response's "error", when a string
}

// adkPart reads a data part in ADK's convention.
func adkPart(p *a2a.Part) (toolPart, bool) {
	if p == nil {
		return toolPart{}, false
	}
	data, ok := p.Content.(a2a.Data)
	if !ok {
		return toolPart{}, false
	}
	obj, _ := data.Value.(map[string]any)
	kind := ""
	for _, k := range []string{"adk_type", "type"} {
		if v, _ := p.Metadata[k].(string); v == adkCall || v == adkResponse {
			kind = v
			break
		}
	}
	if kind == "" {
		for k, alias := range map[string]string{adkCall: "functionCall", adkResponse: "functionResponse"} {
			inner, ok := obj[k].(map[string]any)
			if !ok {
				inner, ok = obj[alias].(map[string]any)
			}
			if ok {
				kind, obj = k, inner
				break
			}
		}
	}
	if kind == "" || obj == nil {
		return toolPart{}, false
	}
	t := toolPart{kind: kind}
	t.id, _ = obj["id"].(string)
	t.name, _ = obj["name"].(string)
	if t.name == "" {
		return toolPart{}, false
	}
	field := "args"
	if kind == adkResponse {
		field = "response"
		if m, ok := obj[field].(map[string]any); ok {
			t.errText, _ = m["error"].(string)
		}
	}
	v, ok := obj[field]
	if !ok {
		v = map[string]any{}
	}
	t.value, _ = json.Marshal(v)
	return t, true
}

// call records a function call, or the result of one.
func (r *run) call(t toolPart, at time.Time, seq int64) {
	ms := at.UnixMilli()
	if t.kind == adkCall {
		id := t.id
		if id == "" {
			id = fmt.Sprintf("%s-%d", t.name, seq)
		}
		if r.s.seenCalls[id] {
			return
		}
		r.s.seenCalls[id] = true
		r.open = append(r.open, id)
		r.rec.AddCall(trace.ToolCall{ID: id, Name: t.name, Args: string(t.value),
			StartedMs: ms, StartSeq: seq, EndedMs: ms, EndSeq: seq})
		r.names(id, t.name)
		return
	}
	id := t.id
	if id == "" {
		id = r.openCall(t.name)
	}
	if id == "" || r.s.results[id] {
		return
	}
	res := &trace.Result{Content: string(t.value), JSON: true, Error: t.errText}
	if r.rec.SetResult(id, res, at, seq) {
		r.s.results[id] = true
	}
}

// names remembers the name of each open call of the turn, to pair a
// response without an id with the latest call of its name.
func (r *run) names(id, name string) {
	if r.callNames == nil {
		r.callNames = map[string]string{}
	}
	r.callNames[id] = name
}

func (r *run) openCall(name string) string {
	for i := len(r.open) - 1; i >= 0; i-- {
		if id := r.open[i]; r.callNames[id] == name && !r.s.results[id] {
			return id
		}
	}
	return ""
}
