//go:build unix

package interop

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
)

// The datasets of testdata/interop/dataset are generated from the case
// families below, one file per agent (the example agent and Mastra answer
// differently). The committed files are the golden output:
// go test ./internal/interop -run TestDatasetsCommitted -update rewrites
// them. Every case carries the verdict it must reach as a tag
// (expect-pass, expect-fail, expect-skipped), and an after hook whose
// command needs the before_all variable RUN_TAG.

// datasetSize is how many cases each dataset holds.
const datasetSize = 200

// profile is how one agent answers.
type profile struct {
	name     string
	weather  map[string][2]string // city → conditions, temperature
	cities   []string
	greeting string // "Nice to meet you, %s." with the name
	fallback string
	// order asks for an order as JSON; orderTool is the tool that looks it
	// up and orderTotal the total in its JSON.
	order, orderTool string
	orderTotal       float64
	// fileName is how the agent names an attached file.
	fileName  func(name string) string
	policyURL string
}

var profiles = []profile{
	{
		name:    "agent",
		weather: map[string][2]string{"Paris": {"sunny", "21"}, "London": {"rainy", "14"}, "Tokyo": {"cloudy", "26"}, "Berlin": {"windy", "17"}},
		cities:  []string{"Paris", "London", "Tokyo", "Berlin"}, greeting: "Nice to meet you, %s.",
		fallback: "I can help with weather, product search, price comparison and orders.",
		order:    "Show order A-1001 as json", orderTool: "get_order", orderTotal: 89.5,
		fileName: func(n string) string { return n }, policyURL: "https://shop.example.com/help/returns",
	},
	{
		name:    "mastra",
		weather: map[string][2]string{"Paris": {"sunny", "21"}, "Berlin": {"cloudy", "12"}, "Lyon": {"rainy", "14"}},
		cities:  []string{"Paris", "Berlin", "Lyon"}, greeting: "Nice to meet you, %s!",
		fallback: "I can check the weather, look up and refund orders, and prepare reports.",
		order:    "Show order A-1001 as json", orderTool: "lookup_order", orderTotal: 42,
		fileName: func(string) string { return "an attachment" }, policyURL: "https://shop.example.com/help/returns",
	},
}

// receipts are the fixture files (fixtures/receipt-N.txt) and their totals.
var receipts = []struct {
	file, text string
	total      float64
}{
	{"receipt-1.txt", "Coffee 4.50\nTotal: $85.50", 85.5},
	{"receipt-2.txt", "Hotel, 2 nights\nTotal: $412.00", 412},
	{"receipt-3.txt", "Taxi to the airport $37.20", 37.2},
	{"receipt-4.txt", "Lunch with a client\nTOTAL $1,204.75", 1204.75},
}

var names = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Ken", "Margaret", "Dennis"}

// kase is one dataset line, written with the keys in this order.
type kase struct {
	ID         string   `json:"id"`
	Name       string   `json:"name,omitempty"`
	Input      any      `json:"input"`
	Assertions []any    `json:"assertions,omitempty"`
	Options    any      `json:"options,omitempty"`
	Before     any      `json:"before,omitempty"`
	After      any      `json:"after"`
	Tags       []string `json:"tags"`
	Skip       string   `json:"skip,omitempty"`
}

func msg(role string, content any) om { return o("role", role, "content", content) }

// om is a JSON object whose keys keep the order they are written in, so
// every line reads "type" first.
type om []any

// o makes an om from alternating keys and values.
func o(kv ...any) om { return om(kv) }

// MarshalJSON writes the pairs in order.
func (m om) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(m); i += 2 {
		k, err := json.Marshal(m[i])
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m[i+1])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// families produce the cases of a profile, in turn, until the dataset is
// full: each family is one behaviour, written with a different part of the
// assertion vocabulary.
func families(p profile) []func(i int) kase {
	city := func(i int) string { return p.cities[i%len(p.cities)] }
	return []func(i int) kase{
		func(i int) kase { // weather: tool_called with args, contains, regex, not_tool_called
			c := city(i)
			w := p.weather[c]
			return kase{Input: fmt.Sprintf("What is the weather in %s?", c), Tags: []string{"weather", "expect-pass"}, Assertions: []any{
				o("type", "tool_called", "name", "get_weather", "args", o("city", c)),
				o("type", "contains", "value", w[1]+"°C"),
				o("type", "regex", "pattern", "(?i)"+w[0]),
				o("type", "not_tool_called", "name", "delete_order"),
			}}
		},
		func(i int) kase { // history: the name from an earlier turn
			n := names[i%len(names)]
			return kase{Input: []any{msg("user", "Hi, my name is "+n), msg("assistant", fmt.Sprintf(p.greeting, n)), msg("user", "What is my name?")},
				Tags: []string{"history", "expect-pass"}, Assertions: []any{
					o("type", "equals", "value", "Your name is "+n+"."),
					o("type", "not_tool_called", "name", "get_weather"),
				}}
		},
		func(i int) kase { // an attached receipt: read_receipt with its total
			r := receipts[i%len(receipts)]
			return kase{Input: []any{msg("user", []any{o("type", "text", "text", "What is in this receipt?"), o("type", "file", "source", "file://../fixtures/"+r.file)})},
				Tags: []string{"attachment", "expect-pass"}, Assertions: []any{
					o("type", "tool_called", "name", "read_receipt", "args", o("total", r.total)),
					o("type", "contains", "value", "Received "+p.fileName(r.file)+" (text/plain"),
					o("type", "ananke", "assert", o("tools", o("max_calls", 1))),
				}}
		},
		func(i int) kase { // greeting: equals, with options sent as forwardedProps
			n := names[(i+3)%len(names)]
			return kase{Input: "my name is " + n, Options: o("locale", "en", "case", i), Tags: []string{"greeting", "expect-pass"},
				Assertions: []any{o("type", "equals", "value", fmt.Sprintf(p.greeting, n)), o("type", "agent", "criteria", "mentions the humidity")}}
		},
		func(i int) kase { // an order as JSON: json_path and type
			return kase{Input: p.order, Tags: []string{"json", "expect-pass"}, Assertions: []any{
				o("type", "tool_called", "name", p.orderTool),
				o("type", "json_path", "path", "$.status", "value", "shipped"),
				o("type", "type", "path", "$.total", "value", "number"),
				o("type", "json_path", "path", "$.total", "value", p.orderTotal),
			}}
		},
		func(i int) kase { // a judge over the answer; a warning that fails without failing
			c := city(i + 1)
			return kase{Input: fmt.Sprintf("weather in %s", c), Tags: []string{"judge", "expect-pass"}, Assertions: []any{
				o("type", "agent", "criteria", "answers with the temperature", "severity", "critical"),
				o("type", "regex", "pattern", "(?i)humid", "severity", "warning"),
			}}
		},
		func(i int) kase { // a script over the transcript, and a per-case hook setting the city
			c := city(i + 2)
			return kase{Input: "weather in ${CITY}", Before: o("cmd", []string{"../before.sh", c}), Tags: []string{"script", "expect-pass"},
				Assertions: []any{o("type", "script", "cmd", []string{"../has.sh", `"city":"` + c + `"`})}}
		},
		func(i int) kase { // the fallback answer, word for word; a warning that fails
			return kase{Input: fmt.Sprintf("hello there, number %d", i), Tags: []string{"fallback", "expect-pass"}, Assertions: []any{
				o("type", "equals", "value", p.fallback),
				o("type", "contains", "value", "refund", "severity", "warning"),
			}}
		},
		func(i int) kase { // failing on purpose: the wrong condition, and a script that finds no delete
			c := city(i)
			return kase{Input: fmt.Sprintf("weather in %s", c), Tags: []string{"weather", "expect-fail"}, Assertions: []any{
				o("type", "contains", "value", "snow"),
				o("type", "script", "cmd", []string{"../has.sh", "delete_order"}),
			}}
		},
		func(i int) kase { // the return policy, its URL from the tool
			return kase{Input: "What is your return policy?", Tags: []string{"policy", "expect-pass"}, Assertions: []any{
				o("type", "tool_called", "name", "get_policy", "args", o("topic", "returns")),
				o("type", "contains", "value", p.policyURL),
			}}
		},
	}
}

// dataset is a profile's dataset, one JSON object per line.
func dataset(p profile) []string {
	fams := families(p)
	var lines []string
	for i := 0; len(lines) < datasetSize; i++ {
		k := fams[i%len(fams)](i / len(fams))
		k.ID = fmt.Sprintf("%s-%03d", k.Tags[0], i+1)
		k.After = o("cmd", []string{"../after.sh", "${RUN_TAG}", k.ID})
		if i == datasetSize-1 {
			k.Skip, k.Tags = "kept for a later release", []string{"skipped", "expect-skipped"}
		}
		b, err := json.Marshal(k)
		if err != nil {
			panic(err)
		}
		lines = append(lines, strings.ReplaceAll(string(b), `\u0026`, "&"))
	}
	return lines
}

func datasetDir() string { return filepath.Join("..", "..", "testdata", "interop", "dataset") }

// TestDatasetsCommitted checks the committed datasets and fixtures are the
// generator's output.
func TestDatasetsCommitted(t *testing.T) {
	for _, p := range profiles {
		golden.Assert(t, filepath.Join(datasetDir(), p.name, "cases.ananke.jsonl"), strings.Join(dataset(p), "\n")+"\n")
	}
	for _, r := range receipts {
		golden.Assert(t, filepath.Join(datasetDir(), "fixtures", r.file), r.text+"\n")
	}
}
