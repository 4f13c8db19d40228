package main

import (
	"reflect"
	"testing"
)

// TestReply covers what the scripted model says beyond the API
// scenarios (chat_test.go).
func TestReply(t *testing.T) {
	user := func(text string) []turn { return []turn{{Role: "user", Text: text}} }
	calledWith := func(name, args, result string) []turn {
		return []turn{{Role: "user", Text: "go"}, {Role: "assistant", Calls: []toolCall{{ID: "c1", Name: name, Args: args}}}, {Role: "tool", CallID: "c1", Text: result}}
	}
	all := []string{"get_weather", "confirm_purchase"}
	tests := []struct {
		name  string
		conv  []turn
		tools []string
		want  answer
	}{
		{"weather with no city: Paris", user("How is the WEATHER?"), all,
			answer{Calls: []toolCall{{Name: "get_weather", Args: `{"city":"Paris"}`}}}},
		{"buy", user("I want to buy the trail shoe"), all, answer{Calls: []toolCall{{Name: "confirm_purchase", Args: `{"amount":89.5}`}}}},
		{"buy without the tool", user("buy it"), nil, answer{Text: "I need a confirm_purchase tool to buy."}},
		{"a purchase declined", calledWith("confirm_purchase", `{"amount":89.5}`, "no"), all, answer{Text: "Purchase cancelled."}},
		{"a weather result it cannot read", calledWith("get_weather", `{"city":"Paris"}`, "sunny"), all, answer{Text: "The weather tool said: sunny"}},
		{"another tool's result", calledWith("lookup", `{}`, `{"n":1}`), all, answer{Text: `lookup returned {"n":1}.`}},
		{"a result for a call nobody made", append(user("go"), turn{Role: "tool", CallID: "zz", Text: "1"}), all,
			answer{Text: "I did not expect a result for that tool call."}},
		{"no name given", user("my name is"), nil, answer{Text: "Nice to meet you."}},
		{"no name known", user("What is my name?"), nil, answer{Text: "You have not told me your name."}},
		{"crash", user("please crash"), nil, answer{Text: "Let me think about that...", Crash: crashMessage}},
	}
	for _, tc := range tests {
		if got := reply(tc.conv, tc.tools); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: reply = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
