package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

var confirmTool = Tool{Name: "confirm_purchase", Description: "Ask the user to confirm a payment"}

const (
	defaultText = "I can help with weather, product search, price comparison and orders."
	productsRes = `[{"sku":"A-100","name":"Trail shoe","price":89.5},{"sku":"B-200","name":"Rain jacket","price":120}]`
	searchText  = "I found 2 products: Trail shoe (A-100) for $89.50 and Rain jacket (B-200) for $120.00."
	validateRes = `{"valid":true,"total":89.5}`
)

// TestScripts runs every single-turn script and checks its tool calls,
// its text and how the run ends.
func TestScripts(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		name      string
		text      string
		tools     []Tool
		wantCalls []wantCall
		wantTexts []string
		wantEnd   string // RUN_FINISHED unless set
	}{
		{
			name:      "weather default city",
			text:      "What's the weather like?",
			wantCalls: []wantCall{{"get_weather", `{"city":"Paris"}`, `{"city":"Paris","temp_c":21,"conditions":"sunny"}`}},
			wantTexts: []string{"It is sunny and 21°C in Paris."},
		},
		{
			name:      "weather london",
			text:      "WEATHER in london please",
			wantCalls: []wantCall{{"get_weather", `{"city":"London"}`, `{"city":"London","temp_c":14,"conditions":"rainy"}`}},
			wantTexts: []string{"It is rainy and 14°C in London."},
		},
		{
			name:      "weather tokyo",
			text:      "How is the weather in Tokyo?",
			wantCalls: []wantCall{{"get_weather", `{"city":"Tokyo"}`, `{"city":"Tokyo","temp_c":26,"conditions":"cloudy"}`}},
			wantTexts: []string{"It is cloudy and 26°C in Tokyo."},
		},
		{
			name:      "weather berlin",
			text:      "weather berlin",
			wantCalls: []wantCall{{"get_weather", `{"city":"Berlin"}`, `{"city":"Berlin","temp_c":17,"conditions":"windy"}`}},
			wantTexts: []string{"It is windy and 17°C in Berlin."},
		},
		{
			name:      "search",
			text:      "Search for trail shoes!",
			wantCalls: []wantCall{{"search_products", `{"query":"trail shoes"}`, productsRes}},
			wantTexts: []string{searchText},
		},
		{
			name:      "find",
			text:      "Can you find a rain jacket?",
			wantCalls: []wantCall{{"search_products", `{"query":"a rain jacket"}`, productsRes}},
			wantTexts: []string{searchText},
		},
		{
			name: "compare default skus",
			text: "Compare the prices",
			wantCalls: []wantCall{
				{"get_price", `{"sku":"A-100"}`, `{"sku":"A-100","price":89.5}`},
				{"get_price", `{"sku":"B-200"}`, `{"sku":"B-200","price":120}`},
			},
			wantTexts: []string{"Trail shoe (A-100) costs $89.50 and Rain jacket (B-200) costs $120.00, so the trail shoe is cheaper by $30.50."},
		},
		{
			name: "compare skus from text",
			text: "compare b-200 with A-100",
			wantCalls: []wantCall{
				{"get_price", `{"sku":"B-200"}`, `{"sku":"B-200","price":120}`},
				{"get_price", `{"sku":"A-100"}`, `{"sku":"A-100","price":89.5}`},
			},
			wantTexts: []string{"Rain jacket (B-200) costs $120.00 and Trail shoe (A-100) costs $89.50, so the trail shoe is cheaper by $30.50."},
		},
		{
			name:      "buy without client tool",
			text:      "I want to buy the trail shoe",
			wantCalls: []wantCall{{"validate_cart", `{}`, validateRes}},
			wantTexts: []string{"I need a confirm_purchase tool to buy."},
		},
		{
			name:  "buy with client tool",
			text:  "I want to buy the trail shoe",
			tools: []Tool{confirmTool},
			wantCalls: []wantCall{
				{"validate_cart", `{}`, validateRes},
				{"confirm_purchase", `{"amount":89.5}`, ""},
			},
		},
		{name: "greet", text: "Hi! My name is Ada Lovelace.", wantTexts: []string{"Nice to meet you, Ada Lovelace."}},
		{name: "recall without history", text: "What is my name?", wantTexts: []string{"You have not told me your name."}},
		{name: "first message", text: "what did I say first?", wantTexts: []string{`Your first message was: "what did I say first?"`}},
		{name: "slow", text: "wait 20 ms", wantTexts: []string{"Done waiting."}},
		{name: "chunks", text: "answer in chunks", wantTexts: []string{"This answer arrives in chunks."}},
		{name: "crash", text: "please crash", wantTexts: []string{"Let me think about that..."}, wantEnd: "RUN_ERROR"},
		{name: "default", text: "hello", wantTexts: []string{defaultText}},
		{name: "empty history", wantTexts: []string{defaultText}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := RunAgentInput{ThreadID: "thread-1", RunID: fmt.Sprintf("run-%d", i), Tools: tc.tools}
			if tc.text != "" {
				in.Messages = userText(tc.text)
			}
			events := postRun(t, srv, in)
			calls, texts := capture(events)
			checkCalls(t, calls, tc.wantCalls)
			if !reflect.DeepEqual(texts, tc.wantTexts) {
				t.Errorf("texts = %q, want %q", texts, tc.wantTexts)
			}
			wantEnd := tc.wantEnd
			if wantEnd == "" {
				wantEnd = "RUN_FINISHED"
			}
			if got := events[len(events)-1].Type; got != wantEnd {
				t.Errorf("last event = %s, want %s", got, wantEnd)
			}
			if e := events[1]; e.Type != "STATE_SNAPSHOT" || !reflect.DeepEqual(e.Snapshot, map[string]any{"turns": float64(len(in.Messages))}) {
				t.Errorf("second event = %s %v, want STATE_SNAPSHOT {turns: %d}", e.Type, e.Snapshot, len(in.Messages))
			}
		})
	}
}

func TestWeatherSequence(t *testing.T) {
	events := postRun(t, newTestServer(t), RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("weather in Paris")})
	want := []string{
		"RUN_STARTED", "STATE_SNAPSHOT",
		"TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT",
		"TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
		"RUN_FINISHED",
	}
	if got := types(events); !reflect.DeepEqual(got, want) {
		t.Errorf("types =\n%q\nwant\n%q", got, want)
	}
	start := events[2]
	if start.ToolCallID != "r-call-1" || start.ParentMessageID != "r-msg-1" {
		t.Errorf("TOOL_CALL_START ids = %q/%q, want r-call-1/r-msg-1", start.ToolCallID, start.ParentMessageID)
	}
	if res := events[7]; res.MessageID != "r-result-1" || res.Role != "tool" {
		t.Errorf("TOOL_CALL_RESULT messageId/role = %q/%q, want r-result-1/tool", res.MessageID, res.Role)
	}
	if text := events[8]; text.MessageID != "r-msg-2" || text.Role != "assistant" {
		t.Errorf("TEXT_MESSAGE_START messageId/role = %q/%q, want r-msg-2/assistant", text.MessageID, text.Role)
	}
}

// TestCompareInterleaved pins the interleaving of the two parallel calls:
// a client that files args by "the open call" instead of by toolCallId
// gets them wrong.
func TestCompareInterleaved(t *testing.T) {
	events := postRun(t, newTestServer(t), RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("compare A-100 and B-200")})
	var got []string
	for _, e := range events {
		if strings.HasPrefix(e.Type, "TOOL_CALL_") {
			got = append(got, e.Type+" "+strings.TrimPrefix(e.ToolCallID, "r-"))
		}
	}
	want := []string{
		"TOOL_CALL_START call-1", "TOOL_CALL_START call-2",
		"TOOL_CALL_ARGS call-1", "TOOL_CALL_ARGS call-2", "TOOL_CALL_ARGS call-1", "TOOL_CALL_END call-1",
		"TOOL_CALL_ARGS call-2", "TOOL_CALL_END call-2",
		"TOOL_CALL_RESULT call-1", "TOOL_CALL_RESULT call-2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tool events =\n%q\nwant\n%q", got, want)
	}
	calls, _ := capture(events)
	if calls[0].parent != "r-msg-1" || calls[1].parent != "r-msg-1" {
		t.Errorf("parents = %q, %q; want both r-msg-1", calls[0].parent, calls[1].parent)
	}
}

func TestChunksHaveNoTriad(t *testing.T) {
	events := postRun(t, newTestServer(t), RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("chunk")})
	for _, e := range events {
		if strings.HasPrefix(e.Type, "TEXT_MESSAGE_") && e.Type != "TEXT_MESSAGE_CHUNK" {
			t.Errorf("got %s, want only TEXT_MESSAGE_CHUNK", e.Type)
		}
		if e.Type == "TEXT_MESSAGE_CHUNK" && (e.MessageID != "r-msg-1" || e.Role != "assistant") {
			t.Errorf("chunk messageId/role = %q/%q, want r-msg-1/assistant", e.MessageID, e.Role)
		}
	}
}

func TestCrashEndsWithRunError(t *testing.T) {
	events := postRun(t, newTestServer(t), RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("crash")})
	last := events[len(events)-1]
	if last.Type != "RUN_ERROR" || last.Message != "the agent crashed on purpose" || last.Code != "demo_crash" {
		t.Errorf("last event = %+v, want RUN_ERROR demo_crash", last)
	}
	if prev := events[len(events)-2]; prev.Type != "TEXT_MESSAGE_END" {
		t.Errorf("event before RUN_ERROR = %s, want TEXT_MESSAGE_END", prev.Type)
	}
}

func TestSlowWaitsInStep(t *testing.T) {
	srv := newTestServer(t)
	in := RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("wait 150 ms")}
	begin := time.Now()
	events := postRun(t, srv, in)
	if elapsed := time.Since(begin); elapsed < 150*time.Millisecond {
		t.Errorf("run took %v, want at least 150ms", elapsed)
	}
	want := []string{"RUN_STARTED", "STATE_SNAPSHOT", "STEP_STARTED", "STEP_FINISHED"}
	if got := types(events)[:4]; !reflect.DeepEqual(got, want) {
		t.Errorf("types = %q, want prefix %q", got, want)
	}
	if events[2].StepName != "waiting" || events[3].StepName != "waiting" {
		t.Errorf("step names = %q/%q, want waiting", events[2].StepName, events[3].StepName)
	}
}

// TestCoinAlternates: for one message the coin script alternates tails (no
// call) and heads (a toss_coin call); another message has its own sequence.
func TestCoinAlternates(t *testing.T) {
	srv := newTestServer(t)
	toss := func(text string) string {
		calls, texts := capture(postRun(t, srv, RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText(text)}))
		if len(calls) == 1 && calls[0].name == "toss_coin" && calls[0].result != nil && *calls[0].result == `{"side":"heads"}` {
			return "heads:" + strings.Join(texts, "")
		}
		return fmt.Sprintf("%d calls:", len(calls)) + strings.Join(texts, "")
	}
	var got []string
	for range 4 {
		got = append(got, toss("Toss a coin for the coin test"))
	}
	got = append(got, toss("toss another coin"))
	want := []string{"0 calls:Tails, I think.", "heads:Heads!", "0 calls:Tails, I think.", "heads:Heads!", "0 calls:Tails, I think."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tosses = %q\nwant %q", got, want)
	}
}

// TestNewScripts: the forecast guess states a number no tool gave; the
// JSON answer carries the order in a ```json block; "think for N ms"
// delays the first event.
func TestNewScripts(t *testing.T) {
	srv := newTestServer(t)
	calls, texts := capture(postRun(t, srv, RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("What about tomorrow in Tokyo?")}))
	if len(calls) != 0 || strings.Join(texts, "") != "Tomorrow should be cloudy again, about 29°C in Tokyo." {
		t.Errorf("forecast: %d calls, text %q", len(calls), texts)
	}
	calls, texts = capture(postRun(t, srv, RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("Order A-1001 as JSON please")}))
	wantOrder := `{"order_id":"A-1001","status":"shipped","items":[{"sku":"A-100","qty":1}],"total":89.5}`
	if len(calls) != 1 || calls[0].name != "get_order" || *calls[0].result != wantOrder ||
		strings.Join(texts, "") != "Here is your order:\n```json\n"+wantOrder+"\n```" {
		t.Errorf("order as json: calls %+v, text %q", calls, texts)
	}
	calls, texts = capture(postRun(t, srv, RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("What is your return policy?")}))
	if len(calls) != 1 || calls[0].name != "get_policy" || !strings.Contains(strings.Join(texts, ""), "https://help.example.com/faq") {
		t.Errorf("return policy: calls %+v, text %q", calls, texts)
	}
	begin := time.Now()
	events := postRun(t, srv, RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("Think for 120 ms, then tell me the weather")})
	if elapsed := time.Since(begin); elapsed < 120*time.Millisecond || events[0].Type != "RUN_STARTED" {
		t.Errorf("think: %v, first event %s", elapsed, events[0].Type)
	}
}

// TestStateCarriesOver: the snapshot starts from the state the client sent,
// and the purchase adds /cart.
func TestStateCarriesOver(t *testing.T) {
	events := postRun(t, newTestServer(t), RunAgentInput{ThreadID: "t", RunID: "r", State: []byte(`{"coupon":"X1"}`), Messages: userText("buy it")})
	snap, _ := json.Marshal(events[1].Snapshot)
	if events[1].Type != "STATE_SNAPSHOT" || string(snap) != `{"coupon":"X1","turns":1}` {
		t.Errorf("snapshot %s %s", events[1].Type, snap)
	}
	var delta string
	for _, e := range events {
		if e.Type == "STATE_DELTA" {
			delta = e.Content
		}
	}
	if delta != `[{"op":"add","path":"/cart","value":{"items":["A-100"],"total":89.5}}]` {
		t.Errorf("delta %s", delta)
	}
}
