package spec

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// TestResumeTurns: every way of writing a resume turn, as read.
func TestResumeTurns(t *testing.T) {
	tt := loadTestFile(t, `version: "1.0"
name: resume
turns:
  - user: "Charge my card 42 EUR"
  - resume: approve
  - resume: {tool: charge_card, answer: reject, payload: {why: "${WHY}"}}
  - resume:
      - {id: i-1, answer: approve, payload_file: fixtures/ok.json}
      - reason: tool_approval
        tool: charge_card
        edit: {amount: 30, note: "${NOTE}"}
  - type: resume
    resume: reject
`, map[string]string{"fixtures/ok.json": `{"ok": true}`})
	got := func(i int) []string {
		var out []string
		for _, e := range tt.Turns[i].Resume {
			out = append(out, strings.Join([]string{e.What, e.ID, e.Reason, e.Tool, e.Answer}, "|"))
		}
		return out
	}
	for i, want := range map[int][]string{
		1: {"resume||||approve"},
		2: {"resume|||charge_card|reject"},
		3: {"resume[0]|i-1|||approve", "resume[1]||tool_approval|charge_card|edit"},
		4: {"resume||||reject"},
	} {
		if tt.Turns[i].Type != TurnResume || !slices.Equal(got(i), want) {
			t.Errorf("turns[%d]: %s %q; want resume %q", i, tt.Turns[i].Type, got(i), want)
		}
	}
	v := vars.NewVars(nil)
	v.Set("WHY", "too much")
	v.Set("NOTE", "half")
	for _, c := range []struct {
		val  vars.Value
		want string
	}{
		{tt.Turns[2].Resume[0].Payload, `{"why":"too much"}`},
		{tt.Turns[3].Resume[0].Payload, `{"ok": true}`},
		{tt.Turns[3].Resume[1].Edit, `{"amount":30,"note":"half"}`},
	} {
		if js, err := c.val.Resolve(v); err != nil || string(js) != c.want {
			t.Errorf("%s, %v; want %s", js, err, c.want)
		}
	}
	if refs := tt.refs(); len(refs) != 2 {
		t.Errorf("refs %v; want WHY and NOTE", refs)
	}
}

// loadTestFile decodes a test file written beside fixture files; it must
// be valid.
func loadTestFile(t *testing.T, src string, fixtures map[string]string) *Test {
	t.Helper()
	fixtures["t.ananke.yaml"] = src
	dir := writeFiles(t, fixtures)
	var diags diag.Diagnostics
	l := newLoader(filepath.Join(dir, "t.ananke.yaml"), &diags)
	tt := l.test(l.ParseBytes([]byte(src)))
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", diags.Error())
	}
	return tt
}

// chargeSchema is the schema of charge_card's arguments, as a test
// declares it.
const chargeSchema = `{type: object, properties: {amount: {type: number, exclusiveMinimum: 0, maximum: 1000}, currency: {enum: [EUR, USD]}}, required: [amount, currency], additionalProperties: false}`

func TestResumeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, turns string
		want        []string
	}{
		{"unknown answer", "  - resume: maybe\n",
			[]string{`4:13: turns[0].resume "maybe" is neither approve nor reject (every pending interrupt), nor a list of answers ({tool, answer, payload, edit})`}},
		{"empty list", "  - resume: []\n", []string{"4:13: turns[0].resume is empty: answer the pending interrupts (approve, reject, or a list of answers)"}},
		{"no answer", "  - resume: {tool: charge_card}\n", []string{"4:13: turns[0].resume needs answer: approve or reject (or edit: the arguments to change)"}},
		{"bad answer", "  - resume: {answer: yes}\n", []string{`4:22: turns[0].resume.answer "yes" is not one of approve, reject, edit`}},
		{"reject with edit", "  - resume: {answer: reject, edit: {amount: 1}}\n",
			[]string{"4:30: turns[0].resume: an edit approves the call with changed arguments; it cannot go with answer: reject"}},
		{"edit without edit", "  - resume: {answer: edit}\n", []string{"4:22: turns[0].resume: answer: edit needs edit: the arguments to change"}},
		{"edit not a mapping", "  - resume: {edit: [1]}\n", []string{"4:20: turns[0].resume.edit must be a mapping, not a list"}},
		{"payload and edit", "  - resume: {edit: {amount: 1}, payload: true}\n",
			[]string{"4:33: turns[0].resume: an edit sends the call's arguments with its changes as the payload; set payload or edit, not both"}},
		{"payload and file", "  - resume: {answer: approve, payload: true, payload_file: x.json}\n",
			[]string{"4:46: turns[0].resume: set payload or payload_file, not both"}},
		{"schema without edit", "  - resume: {answer: approve, schema: {type: object}}\n",
			[]string{"4:31: turns[0].resume: schema checks an edit's arguments; this answer has no edit"}},
		{"user and resume", "  - user: hi\n    resume: approve\n",
			[]string{`4:5: turns[0]: a resume turn answers the pending interrupts and sends no message; remove "user" (or send it in a turn of its own)`}},
		{"resume type without resume", "  - type: resume\n", []string{`4:5: turns[0] is missing required field "resume" (the answers to the pending interrupts)`}},
		{"resume on a connect turn", "  - type: agui:connect\n    resume: approve\n",
			[]string{"5:5: turns[0]: resume is for resume turns; this turn is agui:connect (leave type out)"}},
		{"bad selector", "  - resume: {id: \"\", answer: approve}\n", []string{"4:18: turns[0].resume.id is empty"}},
		// An edit outside the schema the test declares is an error at
		// the line of the argument.
		{"edit outside the schema", "  - resume:\n      tool: charge_card\n      schema: " + chargeSchema + "\n      edit:\n        amount: 5000\n        tip: 2\n",
			[]string{`8:17: turns[0].resume.edit.amount is outside the schema: at /amount: maximum: got 5,000, want 1,000`,
				`9:9: turns[0].resume.edit.tip: the schema takes no argument "tip" (additional properties 'tip' not allowed)`}},
		{"edit of a value the schema refuses", "  - resume: [{tool: charge_card, schema: " + chargeSchema + ", edit: {currency: GBP}}]\n",
			[]string{`4:238: turns[0].resume[0].edit.currency is outside the schema: at /currency: value must be one of 'EUR', 'USD'`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseTest(t, "version: \"1.0\"\nname: n\nturns:\n"+tc.turns)
			var got []string
			for _, d := range diags.Sorted() {
				got = append(got, strings.TrimPrefix(d.String(), "t.ananke.yaml:"))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestResumeEditWithinSchema: an edit the schema allows loads, leaving
// out required arguments (the call's own), and an edit with ${…} is left
// to the run.
func TestResumeEditWithinSchema(t *testing.T) {
	mustTest(t, "version: \"1.0\"\nname: n\nturns:\n  - resume: {tool: charge_card, schema: "+chargeSchema+", edit: {amount: 30}}\n"+
		"  - resume: {tool: charge_card, schema: "+chargeSchema+", edit: {amount: \"${AMOUNT}\"}}\n")
}

// TestOnInterrupt: on_interrupt belongs to a dynamic test and takes one
// of its four values; error is the default.
func TestOnInterrupt(t *testing.T) {
	const dynamic = "version: \"1.0\"\nname: d\nsimulator: {goal: pay}\ncheckpoints: [{id: paid, assert: {text: {contains: [paid]}}}]\n"
	if tt := mustTest(t, dynamic); tt.OnInterrupt != OnInterruptError {
		t.Errorf("default %q", tt.OnInterrupt)
	}
	if tt := mustTest(t, dynamic+"on_interrupt: simulator\n"); tt.OnInterrupt != OnInterruptSimulator {
		t.Errorf("read %q", tt.OnInterrupt)
	}
	for src, want := range map[string]string{
		dynamic + "on_interrupt: maybe\n":                                         `t.ananke.yaml:5:15: on_interrupt "maybe" is not one of error, approve, reject, simulator`,
		"version: \"1.0\"\nname: s\nturns: [{user: hi}]\non_interrupt: approve\n": "t.ananke.yaml:4:1: on_interrupt belongs to a dynamic test: add a simulator, or remove it",
	} {
		_, diags := parseTest(t, src)
		if got := diags.Error(); got != want {
			t.Errorf("%s\nwant %s", got, want)
		}
	}
}
