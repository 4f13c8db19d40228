package otlpfile

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/trace"
)

// The GenAI conventions' message attributes: the messages a model call
// (or an agent's invocation) took and gave, a JSON list of {role,
// parts: [{type: text, content}]}.
const (
	inputMessages  = "gen_ai.input.messages"
	outputMessages = "gen_ai.output.messages"
)

// texts gives a turn the user's message and the assistant's text its
// spans describe: the last user message of the first span (by start)
// that holds input messages, and the assistant's text of the last span
// (by end) that holds output messages. spans are the turn's, by start.
// A turn without output messages gets a notice: its text is not known,
// and a text check must not read its absence as silence.
func texts(turn *trace.Turn, spans []trace.Span, tr *trace.Trace) {
	for i := range spans {
		if ms, ok := messages(spans[i].Attributes[inputMessages]); ok {
			for j := len(ms) - 1; j >= 0; j-- {
				if ms[j].role == "user" {
					turn.UserText = ms[j].text
					break
				}
			}
			break
		}
	}
	last := -1
	var out []message
	for i := range spans {
		if ms, ok := messages(spans[i].Attributes[outputMessages]); ok && (last < 0 || spans[i].EndNs >= spans[last].EndNs) {
			last, out = i, ms
		}
	}
	for _, m := range out {
		if m.role == "assistant" && m.text != "" {
			turn.Texts = append(turn.Texts, m.text)
		}
	}
	if len(turn.Texts) == 0 {
		tr.Notices = append(tr.Notices, trace.Notice{Turn: turn.Index, Message: fmt.Sprintf("turn[%d]: no span of the turn has %s with the assistant's text; the turn's text is empty", turn.Index, outputMessages)})
	}
}

type message struct{ role, text string }

// messages reads a messages attribute: a JSON string, or the list an
// OTLP array value is; ok is false when it is absent or not a list.
func messages(v any) ([]message, bool) {
	if s, ok := v.(string); ok {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, false
		}
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	var out []message
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		role, _ := m["role"].(string)
		var parts []string
		if c, ok := m["content"].(string); ok {
			parts = append(parts, c) // an older shape: the text as content
		}
		ps, _ := m["parts"].([]any)
		for _, p := range ps {
			pm, ok := p.(map[string]any)
			if !ok || pm["type"] != "text" {
				continue
			}
			if c, ok := pm["content"].(string); ok {
				parts = append(parts, c)
			}
		}
		out = append(out, message{role: role, text: strings.Join(parts, "")})
	}
	return out, true
}
