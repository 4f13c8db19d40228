package console

import "strings"

// categoryWords say a failure category in a newcomer's words; the
// category's name follows in parentheses, as summary.json's
// failure_categories spell it (docs/reports.md).
var categoryWords = map[string]string{
	"process":      "the tool calls",
	"outcome":      "what the agent said or returned",
	"format":       "the shape of its answer",
	"groundedness": "claims the conversation does not back",
	"state":        "the agent's state",
	"memory":       "what it read or wrote of its memory",
	"scheduler":    "its scheduled task's runs or messages",
	"timing":       "timing",
	"cost":         "tokens or money over a budget",
	"protocol":     "a RUN_ERROR or a broken stream",
	"judgment":     "a judge's criteria",
	"script":       "a script's verdict",
}

// whatWentWrong is a failed test's categories, each in words:
// "the tool calls (process), timing (timing)".
func whatWentWrong(categories []string) string {
	parts := make([]string, len(categories))
	for i, c := range categories {
		switch w, ok := categoryWords[c]; {
		case !ok || w == c:
			parts[i] = c
		default:
			parts[i] = w + " (" + c + ")"
		}
	}
	return strings.Join(parts, ", ")
}
