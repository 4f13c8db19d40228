package assertion

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ohler55/ojg/jp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/vars"
)

func TestReplyJSON(t *testing.T) {
	for _, tc := range []struct {
		name, reply, text, where string
	}{
		{"whole reply, trimmed", "  {\"a\": 1}\n", `{"a": 1}`, "the reply"},
		{"json fence", "Here it is:\n```json\n{\"a\":1}\n```\nAnything else?", `{"a":1}`, "the reply's ```json block"},
		{"first json fence wins", "```json\n[1]\n```\n```json\n[2]\n```", "[1]", "the reply's ```json block"},
		{"tag ignores case", "```JSON\n[1]\n```", "[1]", "the reply's ```json block"},
		{"json fence even when invalid", "```json\n{oops}\n```", "{oops}", "the reply's ```json block"},
		{"other languages are skipped", "```python\nprint(1)\n```\n```\n{\"b\":2}\n```", `{"b":2}`, "the reply's code block"},
		{"bare fence must hold JSON", "```\nnot json\n```\n{\"c\":3}", "```\nnot json\n```\n{\"c\":3}", "the reply"},
		{"unclosed fence runs to the end", "```json\n{\"a\":1}", `{"a":1}`, "the reply's ```json block"},
		{"inline backticks are no fence", "use ```x``` here", "use ```x``` here", "the reply"},
		{"empty", "", "", "the reply"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := replyJSON(tc.reply)
			if got.text != tc.text || got.where != tc.where {
				t.Errorf("replyJSON(%q) = %q from %s; want %q from %s", tc.reply, got.text, got.where, tc.text, tc.where)
			}
		})
	}
}

// compileSchema compiles an inline schema as the loader does.
func compileSchema(t *testing.T, src string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("file:///test.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("file:///test.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const orderJSONSchema = `{"type": "object", "required": ["id", "total"],
	"properties": {"id": {"type": "string"}, "total": {"type": "number"}, "items": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/item"}}},
	"$defs": {"item": {"type": "object", "required": ["sku"]}}}`

func TestJSONSchema(t *testing.T) {
	sch := compileSchema(t, orderJSONSchema)
	file := Check{Kind: KindJSONSchema, Payload: &JSONSchema{File: "schemas/order.json", Schema: sch}}
	inline := Check{Kind: KindJSONSchema, Payload: &JSONSchema{Schema: sch}}
	runCases(t, []evalCase{
		{"valid reply", file, reply(`{"id": "A1", "total": 89.5}`), status.Pass, "the reply validates against schemas/order.json"},
		{"valid fence", inline, reply("Done:\n```json\n{\"id\": \"A1\", \"total\": 89.5}\n```"), status.Pass,
			"the reply's ```json block validates against the inline schema"},
		{"big numbers keep precision", inline, reply(`{"id": "A1", "total": 123456789012345678901234567890}`), status.Pass, ""},
		{"nested error through $ref", inline, reply(`{"id": "A1", "total": 1, "items": [{"name": "x"}]}`), status.Fail,
			"at /items/0: missing property 'sku'"},
		{"empty reply", inline, scopeOf(turnOf("")), status.Fail, "the reply in turn[0] is empty, not JSON, so it cannot validate against the inline schema"},
	})
	runExact(t, []exactCase{
		{"invalid", file, reply(`{"id": 7, "items": []}`), status.Fail,
			"the reply in turn[0] does not validate against schemas/order.json: at the root: missing property 'total'; " +
				"at /id: got number, want string; at /items: minItems: got 0, want 1"},
		{"not JSON", inline, reply("Sure! The total is 89.5."), status.Fail,
			`the reply in turn[0] is not JSON (invalid character 'S' looking for beginning of value), so it cannot validate against the inline schema: "Sure! The total is 89.5."`},
	})
	r := evalOne(t, file, reply(`{"id": 7, "total": "x", "items": [], "extra": 1}`))
	if len(r.Evidence) != 3 || r.Evidence[2].Note != "at /total: got string, want number" || r.Evidence[2].Text != `"x"` || !hasRefs(r, 2) {
		t.Errorf("evidence %s; want one item per validation error, with the value and the text events", notes(r))
	}
	if r.Observed != "3 validation errors" {
		t.Errorf("Observed = %q", r.Observed)
	}
}

func pathCheck(path string, want string, mod ...func(*JSONPathCheck)) Check {
	c := &JSONPathCheck{Path: path, Expr: jp.MustParseString(path)}
	for _, m := range mod {
		m(c)
	}
	check := Check{Kind: KindJSONPath, Payload: c}
	if want != "" {
		c.Want = json.RawMessage(want)
	}
	return check
}

func typed(typ string) func(*JSONPathCheck) { return func(c *JSONPathCheck) { c.Type = typ } }

func matching(re string) func(*JSONPathCheck) {
	return func(c *JSONPathCheck) { c.Match = vars.MustRegex(re) }
}

func exists(v bool) func(*JSONPathCheck) { return func(c *JSONPathCheck) { c.Exists = &v } }

func TestJSONPath(t *testing.T) {
	order := reply(`{"status": "pending", "total": 89.50, "items": [{"price": 1}, {"price": "2"}], "meta": {"b": 2, "a": [1, 2]}, "note": null}`)
	runCases(t, []evalCase{
		{"equals string", pathCheck("$.status", `"pending"`), order, status.Pass, `$.status selects 1 value in the reply, which equals "pending"`},
		{"equals number semantically", pathCheck("$.total", `89.5`), order, status.Pass, ""},
		{"equals object semantically", pathCheck("$.meta", `{"a": [1, 2.0], "b": 2}`), order, status.Pass, ""},
		{"equals is typed", pathCheck("$.total", `"89.5"`), order, status.Fail, `$.total is 89.5, expected "89.5"`},
		{"match on a string", pathCheck("$.status", "", matching("^pend")), order, status.Pass, "which matches `^pend`"},
		{"match on compact JSON", pathCheck("$.meta.a", "", matching(`^\[1,2\]$`)), order, status.Pass, ""},
		{"match fails", pathCheck("$.total", "", matching(`^\d+$`)), order, status.Fail, "$.total is 89.5, which does not match `^\\d+$`"},
		{"type of every node", pathCheck("$.items[*].price", "", typed("number")), reply(`{"items": [{"price": 1}, {"price": 2}]}`), status.Pass,
			"$.items[*].price selects 2 values in the reply, each is a number"},
		{"the root", pathCheck("$", "", typed("object")), order, status.Pass, "$ selects 1 value in the reply, which is an object"},
		{"null is a value", pathCheck("$.note", "", typed("null")), order, status.Pass, ""},
		{"exists", pathCheck("$.note", "", exists(true)), order, status.Pass, "$.note selects 1 value in the reply"},
		{"exists false", pathCheck("$.error", "", exists(false)), order, status.Pass, "$.error selects nothing in the reply"},
		{"missing", pathCheck("$.missing", `1`), order, status.Fail, "$.missing selects nothing in the reply"},
		{"fenced", pathCheck("$.status", `"ok"`), reply("Result:\n```json\n{\"status\": \"ok\"}\n```"), status.Pass, "in the reply's ```json block"},
	})
	runExact(t, []exactCase{
		{"equals fails", pathCheck("$.status", `"ok"`), order, status.Fail, `$.status is "pending", expected "ok"`},
		{"type fails on the second node", pathCheck("$.items[*].price", "", typed("number")), order, status.Fail,
			`$.items[*].price: $.items[1].price is "2", a string, expected a number`},
		{"wildcards visit keys in order", pathCheck("$.*", "", typed("number")), reply(`{"d": 1, "c": "x", "b": [], "a": 2}`), status.Fail,
			`$.*: $.b is [], an array, expected a number`},
		{"exists false fails", pathCheck("$.meta", "", exists(false)), order, status.Fail,
			`$.meta selects 1 value in the reply, expected nothing: {"a":[1,2],"b":2}`},
		{"not JSON", pathCheck("$.status", `"ok"`), reply("Order placed"), status.Fail,
			`the reply in turn[0] is not JSON (invalid character 'O' looking for beginning of value), so $.status cannot be checked: "Order placed"`},
	})
	r := evalOne(t, pathCheck("$.status", `"ok"`), order)
	if want := `$.status selects at least one value in the reply's JSON, each of which equals "ok"`; r.Expected != want || r.Observed != `1 value: "pending"` || !hasRefs(r, 2) {
		t.Errorf("Expected %q, Observed %q, refs %v; want %q, the value and the text events", r.Expected, r.Observed, r.EventRefs, want)
	}
}
