package simulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/model"
)

// Request is what the agent asks the simulated user to approve: an
// interrupt's message, and the tool call it is about.
type Request struct {
	Message string
	// Tool and Args are the call's name and arguments ("": none).
	Tool, Args string
}

// Decision is the simulated user's answer to a Request.
type Decision struct {
	Approve bool   `json:"approve"`
	Reason  string `json:"reason"`
}

// DecisionSchema is the decision's JSON Schema (strict structured
// output).
var DecisionSchema = map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"approve", "reason"},
	"properties": map[string]any{
		"approve": map[string]any{"type": "boolean"},
		"reason":  map[string]any{"type": "string"},
	},
}

// Decide asks the simulated user whether to approve what the agent asks
// (a dynamic test's on_interrupt: simulator), as its persona would given
// its goal and the conversation so far, at turn (from 1) of at most
// maxTurns. prompt replaces DefaultPrompt when set, as for Next.
func Decide(ctx context.Context, m model.Completer, prompt string, p Persona, past []Exchange, turn, maxTurns int, ask Request) (Decision, model.Usage, error) {
	msgs := messages(prompt, p, past, turn, maxTurns)
	msgs[0].Content += "\n\n" + decidePrompt
	var b strings.Builder
	b.WriteString("[the assistant stops and asks for your approval before it goes on]\n")
	if ask.Message != "" {
		fmt.Fprintf(&b, "%s\n", ask.Message)
	}
	if ask.Tool != "" {
		fmt.Fprintf(&b, "(it would call %s %s)\n", ask.Tool, ask.Args)
	}
	b.WriteString(`Do you approve? Answer {"approve": true|false, "reason": "..."}.`)
	msgs = append(msgs, model.Message{Role: "user", Content: b.String()})
	req := model.Request{Messages: msgs, SchemaName: "approval", Schema: DecisionSchema}
	var d Decision
	usage, err := model.CompleteJSON(ctx, m, req, func(content string) (err error) {
		d, err = parseDecision(content)
		return err
	}, `Answer again: {"approve": true, "reason": "..."}.`)
	if err != nil {
		return Decision{}, usage, err
	}
	return d, usage, nil
}

func parseDecision(content string) (Decision, error) {
	var d struct {
		Approve *bool  `json:"approve"`
		Reason  string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(content), &d); err != nil {
		return Decision{}, fmt.Errorf("not JSON: %w", err)
	}
	if d.Approve == nil {
		return Decision{}, errors.New(`it needs "approve"`)
	}
	return Decision{Approve: *d.Approve, Reason: strings.TrimSpace(d.Reason)}, nil
}

// decidePrompt follows the simulated user's prompt when it is asked to
// approve something.
const decidePrompt = `Now the assistant asks you to approve an action before it takes it. Decide as the
person above would, given the goal: approve what serves the goal as stated, reject what does
not (a wrong amount, an action you did not ask for). Answer with JSON only:
{"approve": true, "reason": "..."}.`
