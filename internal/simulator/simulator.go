// Package simulator plays the user of a dynamic test (docs/models.md, a
// dynamic test): a language model, told a persona and a goal, reads the
// conversation so far with the roles swapped — its own earlier messages as
// the assistant's, the agent's replies as the user's — and writes the next
// user message, or says the goal is achieved. Its answer is JSON of a fixed
// shape; an answer that does not fit is asked for once more, then it is an
// error.
package simulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/model"
)

// Persona is who the simulated user is and what it wants, resolved.
type Persona struct {
	Persona, Goal, Instructions string
}

// Exchange is one turn so far: the user's message, the tools the agent
// called, and its reply.
type Exchange struct {
	User  string
	Tools []string // "validate_cart {} -> {\"valid\":true}"
	Reply string
}

// Move is the simulated user's next step.
type Move struct {
	Message      string `json:"message"`
	GoalAchieved bool   `json:"goal_achieved"`
}

// Schema is the answer's JSON Schema (strict structured output).
var Schema = map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"message", "goal_achieved"},
	"properties": map[string]any{
		"message":       map[string]any{"type": "string"},
		"goal_achieved": map[string]any{"type": "boolean"},
	},
}

// Next asks for the user's message of turn (from 1) of at most maxTurns,
// given the exchanges so far. prompt replaces DefaultPrompt when set.
func Next(ctx context.Context, m model.Completer, prompt string, p Persona, past []Exchange, turn, maxTurns int) (Move, model.Usage, error) {
	req := model.Request{Messages: messages(prompt, p, past, turn, maxTurns), SchemaName: "next_user_message", Schema: Schema}
	var mv Move
	usage, err := model.CompleteJSON(ctx, m, req, func(content string) (err error) {
		mv, err = parse(content)
		return err
	}, `Answer again: {"message": "...", "goal_achieved": false}.`)
	if err != nil {
		return Move{}, usage, err
	}
	return mv, usage, nil
}

func parse(content string) (Move, error) {
	var mv struct {
		Message      *string `json:"message"`
		GoalAchieved *bool   `json:"goal_achieved"`
	}
	if err := json.Unmarshal([]byte(content), &mv); err != nil {
		return Move{}, fmt.Errorf("not JSON: %w", err)
	}
	switch {
	case mv.Message == nil || mv.GoalAchieved == nil:
		return Move{}, errors.New(`it needs both "message" and "goal_achieved"`)
	case strings.TrimSpace(*mv.Message) == "" && !*mv.GoalAchieved:
		return Move{}, errors.New("an empty message, with the goal not achieved")
	}
	return Move{Message: strings.TrimSpace(*mv.Message), GoalAchieved: *mv.GoalAchieved}, nil
}

// messages builds the role-swapped conversation.
func messages(prompt string, p Persona, past []Exchange, turn, maxTurns int) []model.Message {
	if prompt == "" {
		prompt = DefaultPrompt
	}
	out := []model.Message{{Role: "system", Content: prompt + "\n\n" + brief(p, turn, maxTurns)}}
	out = append(out, model.Message{Role: "user", Content: "(The conversation starts. Write your first message to the assistant.)"})
	for _, x := range past {
		out = append(out, model.Message{Role: "assistant", Content: x.User})
		reply := x.Reply
		if len(x.Tools) > 0 {
			reply = "[the assistant used tools: " + strings.Join(x.Tools, "; ") + "]\n" + reply
		}
		if strings.TrimSpace(reply) == "" {
			reply = "(no reply)"
		}
		out = append(out, model.Message{Role: "user", Content: reply})
	}
	return out
}

// brief tells the simulated user who it is and where the conversation is.
func brief(p Persona, turn, maxTurns int) string {
	var b strings.Builder
	if p.Persona != "" {
		fmt.Fprintf(&b, "You are: %s\n", p.Persona)
	}
	fmt.Fprintf(&b, "Your goal: %s\n", p.Goal)
	if p.Instructions != "" {
		fmt.Fprintf(&b, "Instructions: %s\n", p.Instructions)
	}
	fmt.Fprintf(&b, "This is turn %d of at most %d.", turn, maxTurns)
	return b.String()
}

// DefaultPrompt is the simulated user's system prompt; a config replaces
// it with model.prompts.simulator (docs/models.md). The persona, goal,
// instructions and turn count follow it.
const DefaultPrompt = `You play a user talking to an AI assistant, to test the assistant.

In this conversation the roles are swapped: your own earlier messages appear as the
assistant's, and the AI assistant's replies appear as the user's. Write the next message
the user sends, in the user's voice, as a real person with the persona and goal below
would: one message, plain text, no narration. Pursue the goal; answer the assistant's
questions; do not invent facts you were not given unless the persona would.

When the goal is achieved (the assistant did what you wanted and confirmed it), set
"goal_achieved": true; "message" may then be empty.

Answer with JSON only: {"message": "...", "goal_achieved": false}.`
