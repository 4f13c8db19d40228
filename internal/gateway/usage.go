package gateway

import (
	"encoding/json"

	"github.com/ananke/action/internal/oaiwire"
)

// answer is what the gateway reads of a response for the trace: the
// model that answered, its usage, how it finished and which tools it
// called.
type answer struct {
	model        string
	usage        *oaiwire.Usage
	finishReason string
	toolCalls    []string
}

// completionJSON is the part of a chat completion, or of one chunk of a
// streamed one, that answer reads.
type completionJSON struct {
	Model   string `json:"model"`
	Choices []struct {
		FinishReason *string      `json:"finish_reason"`
		Message      *messageJSON `json:"message"`
		Delta        *messageJSON `json:"delta"`
	} `json:"choices"`
	Usage *oaiwire.Usage `json:"usage"`
}

type messageJSON struct {
	ToolCalls []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// read adds what one body or chunk says; what is not JSON of that shape
// says nothing.
func (a *answer) read(data []byte) {
	var c completionJSON
	if json.Unmarshal(data, &c) != nil {
		return
	}
	if a.model == "" {
		a.model = c.Model
	}
	if c.Usage != nil {
		a.usage = c.Usage
	}
	for i, ch := range c.Choices {
		if ch.FinishReason != nil && *ch.FinishReason != "" && (i == 0 || a.finishReason == "") {
			a.finishReason = *ch.FinishReason
		}
		for _, m := range []*messageJSON{ch.Message, ch.Delta} {
			if m == nil {
				continue
			}
			for _, tc := range m.ToolCalls {
				// a streamed call names its function in its first delta
				if tc.Function.Name != "" {
					a.toolCalls = append(a.toolCalls, tc.Function.Name)
				}
			}
		}
	}
}
