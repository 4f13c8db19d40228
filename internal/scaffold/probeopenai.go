package scaffold

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// OpenAIProbe asks an OpenAI-compatible API what init needs to know:
// the models it lists, and what the model answers to the first test's
// message.
type OpenAIProbe struct {
	HTTP *http.Client
	// Endpoint is the API's base URL (".../v1").
	Endpoint string
	// API is "chat" (Chat Completions) or "responses".
	API, Model string
}

func (p OpenAIProbe) url(path string) string { return strings.TrimSuffix(p.Endpoint, "/") + path }

// Models lists the models of GET {endpoint}/models, in its order.
func (p OpenAIProbe) Models(ctx context.Context) ([]string, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := exchange(ctx, p.HTTP, http.MethodGet, p.url("/models"), nil, &list); err != nil {
		return nil, err
	}
	var ids []string
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// Probe sends message as the only user message of a new conversation,
// asking for one JSON answer (not streamed), and reports the text (or
// refusal) and the tools the model called.
func (p OpenAIProbe) Probe(ctx context.Context, message string) Observation {
	o := Observation{Message: message}
	var finish string
	if p.API == "responses" {
		finish, o.Err = p.responses(ctx, &o)
	} else {
		finish, o.Err = p.chat(ctx, &o)
	}
	switch {
	case o.Err != nil:
	case len(o.Tools) > 0:
		o.Err = fmt.Errorf("the model called %q and no result came back (a client tool: declare it in the test's tools)", o.Tools[0])
	case strings.TrimSpace(o.Reply) == "":
		o.Err = fmt.Errorf("the model sent no text (%s)", finish)
	}
	return o
}

// chat asks POST {endpoint}/chat/completions.
func (p OpenAIProbe) chat(ctx context.Context, o *Observation) (string, error) {
	var c struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				Refusal   *string `json:"refusal"`
				ToolCalls []struct {
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	body := map[string]any{"model": p.Model, "stream": false, "messages": []map[string]string{{"role": "user", "content": o.Message}}}
	if err := exchange(ctx, p.HTTP, http.MethodPost, p.url("/chat/completions"), body, &c); err != nil {
		return "", err
	}
	if len(c.Choices) == 0 {
		return "", fmt.Errorf("the completion has no choices")
	}
	m := c.Choices[0].Message
	o.Reply = deref(m.Content) + deref(m.Refusal)
	for _, tc := range m.ToolCalls {
		if !slices.Contains(o.Tools, tc.Function.Name) {
			o.Tools = append(o.Tools, tc.Function.Name)
		}
	}
	return "finish_reason " + c.Choices[0].FinishReason, nil
}

// responses asks POST {endpoint}/responses.
func (p OpenAIProbe) responses(ctx context.Context, o *Observation) (string, error) {
	var r struct {
		Status string `json:"status"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
		Output []struct {
			Type    string `json:"type"`
			Name    string `json:"name"`
			Content []struct {
				Type    string `json:"type"`
				Text    string `json:"text"`
				Refusal string `json:"refusal"`
			} `json:"content"`
		} `json:"output"`
	}
	body := map[string]any{"model": p.Model, "stream": false, "input": o.Message}
	if err := exchange(ctx, p.HTTP, http.MethodPost, p.url("/responses"), body, &r); err != nil {
		return "", err
	}
	if r.Error != nil && r.Error.Message != "" {
		return "", fmt.Errorf("the response failed: %s", r.Error.Message)
	}
	var text []string
	for _, it := range r.Output {
		switch it.Type {
		case "message":
			for _, c := range it.Content {
				text = append(text, c.Text+c.Refusal)
			}
		case "function_call":
			if !slices.Contains(o.Tools, it.Name) {
				o.Tools = append(o.Tools, it.Name)
			}
		}
	}
	o.Reply = strings.Join(text, "")
	return "status " + r.Status, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
