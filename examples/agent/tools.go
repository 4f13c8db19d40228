package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// forecast is both the weather table and the get_weather result.
type forecast struct {
	City       string `json:"city"`
	TempC      int    `json:"temp_c"`
	Conditions string `json:"conditions"`
}

// forecasts are checked in this order; the first is the default city.
var forecasts = []forecast{
	{"Paris", 21, "sunny"},
	{"London", 14, "rainy"},
	{"Tokyo", 26, "cloudy"},
	{"Berlin", 17, "windy"},
}

// product is the catalog entry returned by search_products.
type product struct {
	SKU   string  `json:"sku"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

var catalog = []product{
	{"A-100", "Trail shoe", 89.5},
	{"B-200", "Rain jacket", 120},
}

// The cart the buy script validates and charges.
const (
	cartTotal = 89.5
	chargeID  = "ch_1"
)

// weather calls a backend tool: the agent runs get_weather itself, reports
// the result with TOOL_CALL_RESULT, then answers in text.
func weather(s *stream) {
	f := cityIn(s.lastUserText())
	s.runTool(s.newID("msg"), "get_weather", jsonText(map[string]string{"city": f.City}), jsonText(f))
	s.say(fmt.Sprintf("It is %s and %d°C in %s.", f.Conditions, f.TempC, f.City))
	s.finish()
}

// forecastGuess answers a question about tomorrow without any tool: the
// temperature it states comes from nowhere, the kind of unsupported claim
// grounded: numbers catches.
func forecastGuess(s *stream) {
	f := cityIn(s.lastUserText())
	s.say(fmt.Sprintf("Tomorrow should be %s again, about %d°C in %s.", f.Conditions, f.TempC+3, f.City))
	s.finish()
}

// policyURL is where get_policy says the return policy is.
const policyURL = "https://shop.example.com/help/returns"

// returnPolicy cites the page get_policy returned, and one more that no
// tool mentioned: what grounded: urls catches.
func returnPolicy(s *stream) {
	s.runTool(s.newID("msg"), "get_policy", `{"topic":"returns"}`, jsonText(map[string]any{"days": 30, "url": policyURL}))
	s.say("You can return items within 30 days: see " + policyURL + ". Common questions: https://help.example.com/faq.")
	s.finish()
}

// order is the get_order result.
type order struct {
	OrderID string      `json:"order_id"`
	Status  string      `json:"status"`
	Items   []orderItem `json:"items"`
	Total   float64     `json:"total"`
}

type orderItem struct {
	SKU string `json:"sku"`
	Qty int    `json:"qty"`
}

// orderJSON looks an order up and answers with it as a ```json block, for
// text.json_schema and text.json_path.
func orderJSON(s *stream) {
	o := order{OrderID: "A-1001", Status: "shipped", Items: []orderItem{{"A-100", 1}}, Total: cartTotal}
	s.runTool(s.newID("msg"), "get_order", `{"order_id":"A-1001"}`, jsonText(o))
	s.say("Here is your order:\n```json\n" + jsonText(o) + "\n```")
	s.finish()
}

// cityIn returns the forecast of the first city the text names (Paris by
// default).
func cityIn(text string) forecast {
	text = strings.ToLower(text)
	for _, c := range forecasts {
		if strings.Contains(text, strings.ToLower(c.City)) {
			return c
		}
	}
	return forecasts[0]
}

// search passes the rest of the user's sentence as the query. The catalog is
// tiny, so every query finds the same two products.
func search(s *stream) {
	s.runTool(s.newID("msg"), "search_products", jsonText(map[string]string{"query": queryIn(s.lastUserText())}), jsonText(catalog))
	a, b := catalog[0], catalog[1]
	s.say(fmt.Sprintf("I found 2 products: %s (%s) for $%.2f and %s (%s) for $%.2f.", a.Name, a.SKU, a.Price, b.Name, b.SKU, b.Price))
	s.finish()
}

// compare makes two calls in parallel and interleaves their events, as models
// with parallel tool calling do. A client must keep the arguments of each
// call apart by toolCallId.
func compare(s *stream) {
	a, b := skusIn(s.lastUserText())
	argsA := splitRunes(jsonText(map[string]string{"sku": a.SKU}), 2)
	argsB := splitRunes(jsonText(map[string]string{"sku": b.SKU}), 2)
	parent := s.newID("msg") // one assistant message holds both calls
	c1 := s.startCall(parent, "get_price")
	c2 := s.startCall(parent, "get_price")
	s.callArgs(c1, argsA[0])
	s.callArgs(c2, argsB[0])
	s.callArgs(c1, argsA[1])
	s.endCall(c1)
	s.callArgs(c2, argsB[1])
	s.endCall(c2)
	s.result(c1, jsonText(price{a.SKU, a.Price}))
	s.result(c2, jsonText(price{b.SKU, b.Price}))
	cheap, dear := a, b
	if b.Price < a.Price {
		cheap, dear = b, a
	}
	s.say(fmt.Sprintf("%s (%s) costs $%.2f and %s (%s) costs $%.2f, so the %s is cheaper by $%.2f.",
		a.Name, a.SKU, a.Price, b.Name, b.SKU, b.Price, strings.ToLower(cheap.Name), dear.Price-cheap.Price))
	s.finish()
}

// price is the get_price result.
type price struct {
	SKU   string  `json:"sku"`
	Price float64 `json:"price"`
}

// buy validates the cart with a backend tool, then asks the client to
// confirm with its confirm_purchase tool. That call gets no result in this
// run: the run ends, the client executes the tool and starts a follow-up run
// whose last message is the tool's answer (see afterToolResult).
func buy(s *stream) {
	s.runTool(s.newID("msg"), "validate_cart", "{}", `{"valid":true,"total":89.5}`)
	s.setState("/cart", map[string]any{"items": []string{"A-100"}, "total": cartTotal})
	if !s.offersTool("confirm_purchase") {
		s.say("I need a confirm_purchase tool to buy.")
		s.finish()
		return
	}
	id := s.callTool(s.newID("msg"), "confirm_purchase", jsonText(map[string]float64{"amount": cartTotal}))
	s.finish(id)
}

// afterToolResult continues after the client answered a client tool call.
// The tool message only carries the call id; the tool's name and arguments
// are found in the assistant message of the history that made the call.
func afterToolResult(s *stream, answer Message) {
	call, ok := s.findCall(answer.ToolCallID)
	if !ok || call.Function.Name != "confirm_purchase" {
		s.say(fmt.Sprintf("I did not expect a result for tool call %q.", answer.ToolCallID))
		s.finish()
		return
	}
	if answer.Error != "" || !strings.Contains(strings.ToLower(answer.Text()), "yes") {
		s.say("Purchase cancelled.")
		s.finish()
		return
	}
	args := struct {
		Amount float64 `json:"amount"`
	}{Amount: cartTotal}
	_ = json.Unmarshal([]byte(call.Function.Arguments), &args) // keep the default if unreadable
	s.runTool(s.newID("msg"), "charge_card", jsonText(map[string]float64{"amount": args.Amount}),
		jsonText(charge{Status: "approved", ChargeID: chargeID}))
	s.setState("/order", map[string]string{"status": "paid", "charge_id": chargeID})
	s.say("Order placed: charge " + chargeID + " approved.")
	s.finish()
}

// charge is the charge_card result. A struct, not a map, keeps the keys in
// this order (encoding/json sorts map keys).
type charge struct {
	Status   string `json:"status"`
	ChargeID string `json:"charge_id"`
}

func (s *stream) offersTool(name string) bool {
	for _, t := range s.in.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// findCall looks up a tool call by id in the assistant messages of the history.
func (s *stream) findCall(id string) (ToolCall, bool) {
	for _, m := range s.in.Messages {
		for _, c := range m.ToolCalls {
			if m.Role == "assistant" && c.ID == id {
				return c, true
			}
		}
	}
	return ToolCall{}, false
}

// queryIn returns what follows the first "search" or "find", without a
// leading "for" or trailing punctuation: "Search for trail shoes!" → "trail shoes".
func queryIn(text string) string {
	rest := ""
	cut := len(text) + 1
	for _, k := range []string{"search", "find"} {
		if before, after, ok := cutFold(text, k); ok && len(before) < cut {
			cut, rest = len(before), after
		}
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 4 && strings.EqualFold(rest[:4], "for ") {
		rest = rest[4:]
	}
	return strings.TrimSpace(strings.TrimRight(rest, ".!? "))
}

var skuPattern = regexp.MustCompile(`(?i)\b[a-z]-\d{3}\b`)

// skusIn returns the first two catalog products named by SKU in the text, in
// the order written; missing ones are filled from the catalog.
func skusIn(text string) (product, product) {
	var picked []product
	for _, sku := range append(skuPattern.FindAllString(text, -1), "A-100", "B-200") {
		for _, p := range catalog {
			if strings.EqualFold(p.SKU, sku) && !slices.Contains(picked, p) {
				picked = append(picked, p)
			}
		}
	}
	return picked[0], picked[1]
}
