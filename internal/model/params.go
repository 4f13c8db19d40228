package model

import (
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// defaultSchemaName names the response format when the caller gives none:
// OpenAI requires a name (letters, digits, _ and -, up to 64).
const defaultSchemaName = "reply"

// params builds the SDK request for req.
func (c *Client) params(req Request) (openai.ChatCompletionNewParams, error) {
	if len(req.Messages) == 0 {
		return openai.ChatCompletionNewParams{}, errors.New("model request has no messages")
	}
	msgs := make([]openai.ChatCompletionMessageParamUnion, len(req.Messages))
	for i, m := range req.Messages {
		switch m.Role {
		case "system":
			msgs[i] = openai.SystemMessage(m.Content)
		case "user":
			msgs[i] = openai.UserMessage(m.Content)
		case "assistant":
			msgs[i] = openai.AssistantMessage(m.Content)
		default:
			return openai.ChatCompletionNewParams{}, fmt.Errorf("model request message %d: role %q is not system, user or assistant", i+1, m.Role)
		}
	}
	p := openai.ChatCompletionNewParams{Model: c.name, Messages: msgs}
	if c.temperature != nil {
		p.Temperature = openai.Float(*c.temperature)
	}
	if c.seed != nil {
		p.Seed = openai.Int(*c.seed)
	}
	if req.Schema != nil {
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   schemaName(req),
					Schema: req.Schema,
					Strict: openai.Bool(true),
				},
			},
		}
	}
	return p, nil
}

func schemaName(req Request) string {
	if req.SchemaName == "" {
		return defaultSchemaName
	}
	return req.SchemaName
}
