package model

import (
	"errors"
	"fmt"
)

// defaultSchemaName names the response format when the caller gives none:
// OpenAI requires a name (letters, digits, _ and -, up to 64).
const defaultSchemaName = "reply"

// params builds the request body for req.
func (c *Client) params(req Request) (chatRequest, error) {
	if len(req.Messages) == 0 {
		return chatRequest{}, errors.New("model request has no messages")
	}
	msgs := make([]chatMessage, len(req.Messages))
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "user", "assistant":
			msgs[i] = chatMessage(m)
		default:
			return chatRequest{}, fmt.Errorf("model request message %d: role %q is not system, user or assistant", i+1, m.Role)
		}
	}
	p := chatRequest{Model: c.name, Messages: msgs, Temperature: c.temperature, Seed: c.seed}
	if req.Schema != nil {
		p.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: jsonSchemaParam{Name: schemaName(req), Schema: req.Schema, Strict: true}}
	}
	return p, nil
}

func schemaName(req Request) string {
	if req.SchemaName == "" {
		return defaultSchemaName
	}
	return req.SchemaName
}
