package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// turn is one message of a conversation as the scripted model behind the
// OpenAI-compatible API (openai.go) and the JSON API (jsonapi.go) reads it,
// whichever API it came in: a system, user or assistant text, an
// assistant's tool calls, or a tool's result.
type turn struct {
	Role string // "system", "user", "assistant" or "tool"
	Text string
	// Calls are an assistant's tool calls.
	Calls []toolCall
	// CallID is the call a tool message answers.
	CallID string
}

// toolCall is one call of a tool: its id, its name and its arguments as
// JSON text.
type toolCall struct {
	ID, Name, Args string
}

// answer is what the model says next: tool calls for the caller to run,
// a text, a refusal, or a failure the API reports as an error.
type answer struct {
	Text    string
	Refusal string
	// Calls have no ids yet: the API gives them.
	Calls []toolCall
	// Crash is the message of an error the API reports instead of an
	// answer, after Text (said before failing).
	Crash string
}

// crashMessage is what the crash script fails with, on every API.
const crashMessage = "the agent crashed on purpose"

// reply is the scripted model: what it answers to conv, offered the tools
// named. Like a language model it keeps nothing between requests — the
// conversation is all it knows — and it only asks for tools: the caller
// runs them (the client of the OpenAI-compatible API, the agent itself
// behind the JSON API) and asks again with their results.
//
// After tool results it answers from them. Otherwise the last user message
// decides, ignoring case, the first phrase found winning:
//
//	crash                  a few words, then an error
//	password               a refusal
//	what is my name        the name from an earlier "my name is X"
//	my name is X           "Nice to meet you, X."
//	what did i say first,  quotes the first user message
//	first message
//	weather                get_weather once per city named (Paris, London,
//	                       Tokyo, Berlin; Paris when none), if offered
//	buy                    confirm_purchase {"amount": 89.5}, if offered
//	anything else          a one-line help text
func reply(conv []turn, tools []string) answer {
	if results := lastResults(conv); len(results) > 0 {
		return fromResults(conv, results)
	}
	text := strings.ToLower(lastUser(conv))
	switch {
	case strings.Contains(text, "crash"):
		return answer{Text: "Let me think about that...", Crash: crashMessage}
	case strings.Contains(text, "password"):
		return answer{Refusal: "I can't help with that."}
	case strings.Contains(text, "what is my name"):
		return answer{Text: recall(conv)}
	case strings.Contains(text, "my name is"):
		if name := nameIn(lastUser(conv)); name != "" {
			return answer{Text: "Nice to meet you, " + name + "."}
		}
		return answer{Text: "Nice to meet you."}
	case strings.Contains(text, "what did i say first"), strings.Contains(text, "first message"):
		return answer{Text: fmt.Sprintf("Your first message was: %q", userTurns(conv)[0])}
	case strings.Contains(text, "weather"):
		if !slices.Contains(tools, "get_weather") {
			return answer{Text: "I cannot look up the weather: no get_weather tool was offered."}
		}
		var calls []toolCall
		for _, f := range citiesIn(text) {
			calls = append(calls, toolCall{Name: "get_weather", Args: jsonText(map[string]string{"city": f.City})})
		}
		return answer{Calls: calls}
	case strings.Contains(text, "buy"):
		if !slices.Contains(tools, "confirm_purchase") {
			return answer{Text: "I need a confirm_purchase tool to buy."}
		}
		return answer{Calls: []toolCall{{Name: "confirm_purchase", Args: jsonText(map[string]float64{"amount": cartTotal})}}}
	}
	return answer{Text: "I can look up the weather, take an order and remember what you tell me."}
}

// lastResults are the tool messages that end the conversation, answering
// the calls of the assistant message before them.
func lastResults(conv []turn) []turn {
	i := len(conv)
	for i > 0 && conv[i-1].Role == "tool" {
		i--
	}
	return conv[i:]
}

// fromResults answers from the tools' results: one sentence per result,
// in the order of the calls.
func fromResults(conv, results []turn) answer {
	var says []string
	for _, r := range results {
		says = append(says, fromResult(findCall(conv, r.CallID), r.Text))
	}
	return answer{Text: strings.Join(says, " ")}
}

// fromResult is one sentence about one tool's result.
func fromResult(call toolCall, result string) string {
	switch call.Name {
	case "get_weather":
		var f forecast
		if json.Unmarshal([]byte(result), &f) == nil && f.City != "" && f.Conditions != "" {
			return fmt.Sprintf("It is %s and %d°C in %s.", f.Conditions, f.TempC, f.City)
		}
		return "The weather tool said: " + result
	case "confirm_purchase":
		if strings.Contains(strings.ToLower(result), "yes") {
			return "Order placed: charge " + chargeID + " approved."
		}
		return "Purchase cancelled."
	case "":
		return "I did not expect a result for that tool call."
	}
	return fmt.Sprintf("%s returned %s.", call.Name, result)
}

// findCall finds the call a tool result answers; the zero call when no
// assistant message made it.
func findCall(conv []turn, id string) toolCall {
	for _, t := range conv {
		for _, c := range t.Calls {
			if c.ID == id {
				return c
			}
		}
	}
	return toolCall{}
}

// citiesIn are the forecasts of the cities text names, in the order it
// names them; Paris when it names none.
func citiesIn(text string) []forecast {
	text = strings.ToLower(text)
	var found []forecast
	for _, f := range forecasts {
		if strings.Contains(text, strings.ToLower(f.City)) {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		return forecasts[:1]
	}
	slices.SortStableFunc(found, func(a, b forecast) int {
		return strings.Index(text, strings.ToLower(a.City)) - strings.Index(text, strings.ToLower(b.City))
	})
	return found
}

// recall finds the name an earlier user message gave.
func recall(conv []turn) string {
	users := userTurns(conv)
	for i := len(users) - 2; i >= 0; i-- { // newest earlier message first
		if name := nameIn(users[i]); name != "" {
			return "Your name is " + name + "."
		}
	}
	return "You have not told me your name."
}

// userTurns are the texts of the user messages, oldest first.
func userTurns(conv []turn) []string {
	var texts []string
	for _, t := range conv {
		if t.Role == "user" {
			texts = append(texts, t.Text)
		}
	}
	return texts
}

func lastUser(conv []turn) string {
	users := userTurns(conv)
	if len(users) == 0 {
		return ""
	}
	return users[len(users)-1]
}

// countUsage is the tokens a request used: the conversation it read (and
// a fixed instruction of 120 tokens) in, the text, refusal and arguments
// it wrote out, at about four bytes a token as the AG-UI runs count
// (stream.go), so the same conversation always costs the same.
func countUsage(conv []turn, a answer) (in, out int) {
	read := 0
	for _, t := range conv {
		read += len(t.Text)
		for _, c := range t.Calls {
			read += len(c.Name) + len(c.Args)
		}
	}
	wrote := len(a.Text) + len(a.Refusal)
	for _, c := range a.Calls {
		wrote += len(c.Name) + len(c.Args)
	}
	return 120 + tokens(read), tokens(wrote)
}
