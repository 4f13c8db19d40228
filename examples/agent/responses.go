package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
)

// responsesRequest is the body of POST /v1/responses. The conversation
// so far is either sent as input items or kept by the agent: with
// previous_response_id, the input only adds to the conversation that
// response ended (its instructions are not carried over).
type responsesRequest struct {
	Model              string          `json:"model"`
	Input              json.RawMessage `json:"input"` // a string or an array of items
	Instructions       string          `json:"instructions"`
	Tools              []responsesTool `json:"tools"`
	PreviousResponseID string          `json:"previous_response_id"`
	Stream             bool            `json:"stream"`
	Store              *bool           `json:"store"` // default true
}

// responsesTool is a tool the caller offers; only function tools are
// read.
type responsesTool struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// inputItem is one item of input: a message (type "message", or no type
// with a role), a function call an earlier response made, or a function
// call's output.
type inputItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

// response is the Responses API's response object: the answer as output
// items, and its usage.
type response struct {
	ID                 string          `json:"id"`
	Object             string          `json:"object"`
	CreatedAt          int64           `json:"created_at"`
	Status             string          `json:"status"`
	Model              string          `json:"model"`
	Output             []outputItem    `json:"output"`
	PreviousResponseID *string         `json:"previous_response_id"`
	Error              *apiError       `json:"error"`
	Usage              *responsesUsage `json:"usage"`
	Store              bool            `json:"store"`
}

// outputItem is a message or a function call of a response.
type outputItem struct {
	Type      string       `json:"type"`
	ID        string       `json:"id"`
	Status    string       `json:"status"`
	Role      string       `json:"role,omitempty"`
	Content   []outputPart `json:"content,omitempty"`
	CallID    string       `json:"call_id,omitempty"`
	Name      string       `json:"name,omitempty"`
	Arguments *string      `json:"arguments,omitempty"`
}

// outputPart is an output_text or a refusal part of a message.
type outputPart struct {
	Type        string  `json:"type"`
	Text        *string `json:"text,omitempty"`
	Refusal     *string `json:"refusal,omitempty"`
	Annotations *[]any  `json:"annotations,omitempty"` // [] in an output_text part
}

type responsesUsage struct {
	InputTokens         int            `json:"input_tokens"`
	InputTokensDetails  map[string]int `json:"input_tokens_details"`
	OutputTokens        int            `json:"output_tokens"`
	OutputTokensDetails map[string]int `json:"output_tokens_details"`
	TotalTokens         int            `json:"total_tokens"`
}

func newResponsesUsage(in, out int) *responsesUsage {
	return &responsesUsage{InputTokens: in, InputTokensDetails: map[string]int{"cached_tokens": 0},
		OutputTokens: out, OutputTokensDetails: map[string]int{"reasoning_tokens": 0}, TotalTokens: in + out}
}

// serveResponses answers POST /v1/responses.
func (a *api) serveResponses(w http.ResponseWriter, r *http.Request) {
	var req responsesRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeAPIError(w, http.StatusBadRequest, err.Error(), "", "")
		return
	}
	conv, param, code, err := a.responsesConversation(req)
	if err != nil {
		writeAPIError(w, http.StatusBadRequest, err.Error(), param, code)
		return
	}
	var tools []string
	for _, t := range req.Tools {
		if t.Type == "function" {
			tools = append(tools, t.Name)
		}
	}
	asked := conv
	if req.Instructions != "" {
		asked = append([]turn{{Role: "system", Text: req.Instructions}}, conv...)
	}
	ans := reply(asked, tools)
	for i := range ans.Calls {
		ans.Calls[i].ID = a.newID("call_")
	}
	resp := response{ID: a.newID("resp_"), Object: "response", CreatedAt: a.now().Unix(), Status: "completed",
		Model: req.Model, Output: []outputItem{}, PreviousResponseID: nullable(req.PreviousResponseID), Store: req.Store == nil || *req.Store}
	output := a.outputItems(ans)
	if ans.Crash == "" && resp.Store {
		a.keep(resp.ID, conv, ans)
	}
	in, out := countUsage(asked, ans)
	if req.Stream {
		startStream(w)
		streamResponse(newEventWriter(r.Context(), w, a.delay), resp, output, ans, newResponsesUsage(in, out))
		return
	}
	if ans.Crash != "" {
		writeAPIError(w, http.StatusInternalServerError, ans.Crash, "", "demo_crash")
		return
	}
	resp.Output, resp.Usage = output, newResponsesUsage(in, out)
	writeJSON(w, http.StatusOK, resp)
}

// responsesConversation is the conversation the request continues: the
// stored one of previous_response_id, then the input; param and code name
// what is at fault.
func (a *api) responsesConversation(req responsesRequest) (conv []turn, param, code string, err error) {
	if req.Model == "" {
		return nil, "model", "", fmt.Errorf("you must provide a model parameter")
	}
	if id := req.PreviousResponseID; id != "" {
		a.mu.Lock()
		prev, ok := a.responses[id]
		a.mu.Unlock()
		if !ok {
			return nil, "previous_response_id", "previous_response_not_found", fmt.Errorf("previous response with id %q not found", id)
		}
		conv = append(conv, prev...)
	}
	input, err := inputTurns(req.Input)
	if err != nil {
		return nil, "input", "", err
	}
	if len(input) == 0 {
		return nil, "input", "", fmt.Errorf("input must not be empty")
	}
	conv = append(conv, input...)
	if problem := callProblem(conv); problem != "" {
		return nil, "input", "", fmt.Errorf("%s", problem)
	}
	return conv, "", "", nil
}

// inputTurns reads input: a string is one user message.
func inputTurns(raw json.RawMessage) ([]turn, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []turn{{Role: "user", Text: s}}, nil
	}
	var items []inputItem
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("input is neither a string nor an array of items")
	}
	var conv []turn
	for i, it := range items {
		switch it.Type {
		case "", "message":
			text, err := contentText(it.Content)
			if err != nil {
				return nil, fmt.Errorf("input[%d]: %w", i, err)
			}
			role := it.Role
			if role == "developer" {
				role = "system"
			}
			conv = append(conv, turn{Role: role, Text: text})
		case "function_call":
			call := toolCall{ID: it.CallID, Name: it.Name, Args: it.Arguments}
			if n := len(conv); n > 0 && conv[n-1].Role == "assistant" && conv[n-1].Text == "" {
				conv[n-1].Calls = append(conv[n-1].Calls, call) // calls of one response arrive as items of their own
			} else {
				conv = append(conv, turn{Role: "assistant", Calls: []toolCall{call}})
			}
		case "function_call_output":
			conv = append(conv, turn{Role: "tool", CallID: it.CallID, Text: resultText(it.Output)})
		default:
			return nil, fmt.Errorf("input[%d]: item type %q is not supported", i, it.Type)
		}
	}
	return conv, nil
}

// outputItems are the answer as output items, each with an id of its
// own: a message (its text or its refusal), or one function call per
// call.
func (a *api) outputItems(ans answer) []outputItem {
	if len(ans.Calls) == 0 {
		part := outputPart{Type: "output_text", Text: &ans.Text, Annotations: &[]any{}}
		if ans.Refusal != "" {
			part = outputPart{Type: "refusal", Refusal: &ans.Refusal}
		}
		return []outputItem{{Type: "message", ID: a.newID("msg_"), Status: "completed", Role: "assistant", Content: []outputPart{part}}}
	}
	var items []outputItem
	for _, c := range ans.Calls {
		items = append(items, outputItem{Type: "function_call", ID: a.newID("fc_"), Status: "completed",
			CallID: c.ID, Name: c.Name, Arguments: &c.Args})
	}
	return items
}

// keep stores the conversation a response ends, for a request naming it
// as previous_response_id.
func (a *api) keep(id string, conv []turn, ans answer) {
	ended := append(slices.Clone(conv), turn{Role: "assistant", Text: ans.Text + ans.Refusal, Calls: ans.Calls})
	a.mu.Lock()
	defer a.mu.Unlock()
	a.responses[id] = ended
}

// streamResponse streams a response as OpenAI does: response.created and
// response.in_progress, then for each output item output_item.added,
// its text, refusal or arguments in deltas and their done event,
// output_item.done, and response.completed with the usage. A crash sends
// its words, then response.failed.
func streamResponse(ew *eventWriter, resp response, output []outputItem, ans answer, usage *responsesUsage) {
	seq := 0
	emit := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		ew.sendNamed(typ, fields)
	}
	resp.Status = "in_progress"
	emit("response.created", map[string]any{"response": resp})
	emit("response.in_progress", map[string]any{"response": resp})
	for i, item := range output {
		at := map[string]any{"output_index": i, "item_id": item.ID}
		with := func(more map[string]any) map[string]any {
			for k, v := range at {
				more[k] = v
			}
			return more
		}
		started := item
		started.Status, started.Content = "in_progress", []outputPart{}
		if item.Type == "function_call" {
			empty := ""
			started.Arguments = &empty
		}
		emit("response.output_item.added", map[string]any{"output_index": i, "item": started})
		switch {
		case item.Type == "function_call":
			for _, piece := range splitRunes(*item.Arguments, 3) {
				emit("response.function_call_arguments.delta", with(map[string]any{"delta": piece}))
			}
			emit("response.function_call_arguments.done", with(map[string]any{"arguments": *item.Arguments}))
		case ans.Refusal != "":
			emit("response.content_part.added", with(map[string]any{"content_index": 0, "part": outputPart{Type: "refusal", Refusal: new(string)}}))
			for _, piece := range splitWords(ans.Refusal, 3) {
				emit("response.refusal.delta", with(map[string]any{"content_index": 0, "delta": piece}))
			}
			emit("response.refusal.done", with(map[string]any{"content_index": 0, "refusal": ans.Refusal}))
			emit("response.content_part.done", with(map[string]any{"content_index": 0, "part": item.Content[0]}))
		default:
			emit("response.content_part.added", with(map[string]any{"content_index": 0, "part": outputPart{Type: "output_text", Text: new(string), Annotations: &[]any{}}}))
			for _, piece := range splitWords(ans.Text, 4) {
				emit("response.output_text.delta", with(map[string]any{"content_index": 0, "delta": piece}))
			}
			if ans.Crash != "" {
				resp.Status, resp.Error = "failed", &apiError{Message: ans.Crash, Type: "server_error", Code: nullable("server_error")}
				emit("response.failed", map[string]any{"response": resp})
				return
			}
			emit("response.output_text.done", with(map[string]any{"content_index": 0, "text": ans.Text}))
			emit("response.content_part.done", with(map[string]any{"content_index": 0, "part": item.Content[0]}))
		}
		emit("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	resp.Status, resp.Output, resp.Usage = "completed", output, usage
	emit("response.completed", map[string]any{"response": resp})
}
