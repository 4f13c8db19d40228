package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// The chat-completions API as this client speaks it: the request and reply
// fields Ananke uses, sent and read with net/http. Every OpenAI-compatible
// server (OpenAI, Azure-compatible proxies, Ollama, vLLM, LiteLLM, aimock)
// takes this shape.
//
// It replaced the openai-go SDK (v3.96.0), whose package initialisation
// alone cost every run of Ananke 11 MB of resident memory and about 4 ms of
// start-up, model or no model, and doubled the binary (docs/performance.md):
// of its thousands of types Ananke sent one request and read one reply.

// maxReply bounds a reply body: a chat completion is a few KiB.
const maxReply = 16 << 20

type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type       string          `json:"type"` // "json_schema"
	JSONSchema jsonSchemaParam `json:"json_schema"`
}

type jsonSchemaParam struct {
	Name   string `json:"name"`
	Schema any    `json:"schema"`
	Strict bool   `json:"strict"`
}

// chatCompletion is the part of a reply Ananke reads.
type chatCompletion struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
			Refusal string `json:"refusal"`
		} `json:"message"`
	} `json:"choices"`
	// Usage is nil when the endpoint reported none: its tokens are
	// unknown, not zero.
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// post sends one chat-completions request and decodes the reply. A non-2xx
// answer is returned with its body for httpFailure; other errors are the
// transport's, or a reply that is not a chat completion.
func (c *Client) post(ctx context.Context, body []byte) (*chatCompletion, *http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cacheURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, nil, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxReply+1))
	if err != nil {
		return nil, res, nil, err
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, res, data, nil
	}
	if len(data) > maxReply {
		return nil, res, nil, fmt.Errorf("the reply is larger than %d MiB", maxReply>>20)
	}
	var comp chatCompletion
	if err := json.Unmarshal(data, &comp); err != nil {
		if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "" && mt != "application/json" {
			err = fmt.Errorf("it is %s, not JSON: %s", mt, truncate(strings.Join(strings.Fields(string(data)), " ")))
		}
		return nil, res, nil, err
	}
	return &comp, res, nil, nil
}
