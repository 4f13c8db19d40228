package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
)

// jsonChatRequest is the body of POST /api/chat, a JSON API of the kind a
// team writes for its own agent: one message, and the session it belongs
// to ("" or an id the agent has not seen starts one).
type jsonChatRequest struct {
	Session string `json:"session"`
	Message string `json:"message"`
}

// jsonChatResponse is its answer: the session to send next time, the
// reply, the tools the agent ran for it, and what it used. Error is set
// (and the reply empty) when the agent failed.
type jsonChatResponse struct {
	SessionID string         `json:"session_id"`
	Reply     string         `json:"reply"`
	ToolCalls []jsonToolCall `json:"tool_calls"`
	Usage     jsonUsage      `json:"usage"`
	Error     string         `json:"error,omitempty"`
}

// jsonToolCall is a tool the agent ran: its arguments and its output as
// JSON objects.
type jsonToolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Output json.RawMessage `json:"output"`
}

type jsonUsage struct {
	In  int `json:"in"`
	Out int `json:"out"`
}

// backendTools are the tools the agent runs itself behind the JSON API.
var backendTools = []string{"get_weather"}

// maxRounds bounds the tool rounds of one message.
const maxRounds = 4

// serveJSONChat answers POST /api/chat. The agent keeps each session's
// conversation, so a client sends only the new message: the user's name
// given in one turn is known in the next of the same session. It asks the
// scripted model (reply.go), runs the tools the model asks for and asks
// again with their results, until the model answers in text.
func (a *api) serveJSONChat(w http.ResponseWriter, r *http.Request) {
	var req jsonChatRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if strings.TrimSpace(req.Message) == "" {
		writeError(w, http.StatusBadRequest, errors.New("message is required"))
		return
	}
	out := jsonChatResponse{SessionID: req.Session, ToolCalls: []jsonToolCall{}}
	if out.SessionID == "" {
		out.SessionID = a.newID("session_")
	}
	a.mu.Lock()
	conv := append(slices.Clone(a.sessions[out.SessionID]), turn{Role: "user", Text: req.Message})
	a.mu.Unlock()
	for round := 0; ; round++ {
		ans := reply(conv, backendTools)
		in, o := countUsage(conv, ans)
		out.Usage.In, out.Usage.Out = out.Usage.In+in, out.Usage.Out+o
		if ans.Crash != "" {
			out.Error = ans.Crash
			writeJSON(w, http.StatusOK, out)
			return
		}
		if len(ans.Calls) == 0 || round == maxRounds {
			out.Reply = ans.Text + ans.Refusal
			conv = append(conv, turn{Role: "assistant", Text: out.Reply})
			break
		}
		for i := range ans.Calls {
			ans.Calls[i].ID = a.newID("call_")
		}
		conv = append(conv, turn{Role: "assistant", Calls: ans.Calls})
		for _, c := range ans.Calls {
			output := runBackendTool(c)
			out.ToolCalls = append(out.ToolCalls, jsonToolCall{ID: c.ID, Name: c.Name, Args: json.RawMessage(c.Args), Output: json.RawMessage(output)})
			conv = append(conv, turn{Role: "tool", CallID: c.ID, Text: output})
		}
	}
	a.mu.Lock()
	a.sessions[out.SessionID] = conv
	a.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// runBackendTool runs one of backendTools and returns its output as JSON
// text.
func runBackendTool(c toolCall) string {
	var args struct {
		City string `json:"city"`
	}
	_ = json.Unmarshal([]byte(c.Args), &args)
	for _, f := range forecasts {
		if c.Name == "get_weather" && strings.EqualFold(f.City, args.City) {
			return jsonText(f)
		}
	}
	return jsonText(map[string]string{"error": "no forecast for " + args.City})
}
