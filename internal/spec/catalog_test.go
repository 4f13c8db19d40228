package spec

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
)

// describeNamed is describeCheck with what the catalog's named checks
// add: a require's count, an order's tools, a memory entry, a scheduler
// count and the capabilities required besides the kind's.
func describeNamed(c assertion.Check) string {
	s := describeCheck(c)
	switch p := c.Payload.(type) {
	case *assertion.Require:
		if p.Count.Min != assertion.DefaultCount.Min || p.Count.Max != assertion.DefaultCount.Max {
			s += " " + p.Count.String()
		}
	case assertion.Order:
		var names []string
		for _, n := range p.Tools {
			names = append(names, n.Value)
		}
		s += " " + strings.Join(names, ">")
	case *assertion.MemoryEntry:
		s += " " + describeEntry(*p)
	case *assertion.Counted:
		s += " " + describeCounted(p)
	}
	if len(c.Requires) > 0 {
		s += " requires=" + strings.Join(c.Requires, ",")
	}
	return s
}

// vocabTest is a test file whose assertions: list holds item (line 4,
// column 15).
func vocabTest(item string) string {
	return "version: \"1.0\"\nname: t\nturns: [{user: hi}]\nassertions: [" + item + "]\n"
}

// TestCatalog maps each of the catalog's named checks onto the checks
// it means.
func TestCatalog(t *testing.T) {
	tests := []struct {
		item string
		want string
	}{
		{`{type: must_call_tool, tool: search}`, "tools.require critical search"},
		{`{type: must_call_tool, tool: search, args: {q: "a.b", n: 2}}`, `tools.require critical search q=^a\.b$ n=^2$`},
		{`{type: must_call_tool, tool: search, args_match: {q: "(?i)shoes", opts.limit: "^\\d+$"}}`, `tools.require critical search q=(?i)shoes opts.limit=^\d+$`},
		{`{type: must_call_tool, tool: search, args: {n: 2}, args_match: {q: "(?i)shoes"}}`, `tools.require critical search n=^2$ q=(?i)shoes`},
		{`{type: must_not_call_tool, tool: delete}`, "tools.forbid critical delete"},
		{`{type: must_not_call_tool, tool: [delete, drop]}`, "tools.forbid critical delete | tools.forbid critical drop"},
		{`{type: tool_call_order, tools: [login, fetch, logout]}`, "tools.order critical login>fetch>logout"},
		{`{type: max_tool_calls, max: 3}`, "tools.max_calls critical 3"},
		{`{type: output_contains, value: Hi}`, "text.contains critical Hi"},
		{`{type: output_contains, value: [a, b], case_sensitive: true}`, "text.contains critical a cs | text.contains critical b cs"},
		{`{type: output_omits, value: secret}`, "text.omits critical secret"},
		{`{type: output_matches_format, pattern: '^\d+$'}`, `text.must_match critical ^\d+$`},
		{`{type: memory_recall_same_group, expect: Biscuit, fact: '(?i)bullet'}`,
			"text.must_match critical Biscuit | memory.reads critical own content=(?i)bullet"},
		{`{type: memory_recall_same_group, expect: [Biscuit, Rex]}`,
			"text.must_match critical Biscuit | text.must_match critical Rex | memory.reads critical own"},
		{`{type: no_cross_group_memory_use}`, "memory.forbid critical other"},
		{`{type: no_cross_group_memory_use, facts: [Rex, Biscuit]}`,
			"text.omits critical Rex | text.omits critical Biscuit | memory.forbid critical other"},
		{`{type: no_cross_group_memory_use, facts: Rex}`, "text.omits critical Rex | memory.forbid critical other"},
		{`{type: scheduler_task_runs}`, "scheduler.task_runs critical at least 1 time"},
		{`{type: scheduler_task_runs, count: 1, status: success}`, "scheduler.task_runs critical exactly 1 time status=success"},
		{`{type: scheduler_task_runs, count: {min: 1, max: 3}}`, "scheduler.task_runs critical between 1 and 3 times"},
		{`{type: scheduler_outbound_count, count: 0}`, "scheduler.outbound critical exactly 0 times"},
		{`{type: scheduler_outbound_count, count: 2, match: digest}`, "scheduler.outbound critical exactly 2 times match=digest"},
		{`{type: retry_policy_respected, tool: fetch, max_attempts: 3}`, "tools.require critical fetch between 1 and 3 times"},
		{`{type: retry_policy_respected, tool: fetch, max_attempts: 1}`, "tools.require critical fetch exactly 1 time"},
		{`{type: graceful_failure_output}`, "text.must_match critical " + `(?i)\b(couldn't|could not|can't|cannot|unable|failed|unavailable|timed out|try again|sorry)\b`},
		{`{type: graceful_failure_output, pattern: '(?i)sorry'}`, "text.must_match critical (?i)sorry"},
		{`{type: budget, max_total_tokens: 2000, max_cost_usd: 0.05}`, "budget.max_total_tokens critical 2000 | budget.max_cost_usd critical $0.05"},
		{`{type: budget, params: {max_input_tokens: 10, max_output_tokens: 20}, severity: warning}`, "budget.max_input_tokens warning 10 | budget.max_output_tokens warning 20"},
		// Severity, params and requires_capabilities: the envelope.
		{`{type: max_tool_calls, max: 3, severity: warning}`, "tools.max_calls warning 3"},
		{`{id: digest-once, type: scheduler_outbound_count, severity: warning, params: {count: 1}, requires_capabilities: [supports_scheduler_context]}`,
			"scheduler.outbound warning exactly 1 time requires=supports_scheduler_context"},
		{`{type: memory_recall_same_group, params: {expect: Biscuit, fact: bullet}, requires: supports_replay}`,
			"text.must_match critical Biscuit requires=supports_replay | memory.reads critical own content=bullet requires=supports_replay"},
		{`{type: output_contains, params: {value: Hi, case_sensitive: true}}`, "text.contains critical Hi cs"},
		{`{type: must_call_tool, params: {tool: t, args: {id: 7}}, severity: warning}`, "tools.require warning t id=^7$"},
		{`{type: no_cross_group_memory_use, params: {}}`, "memory.forbid critical other"},
		// The older named types take the envelope too.
		{`{type: contains, params: {value: Hi}, requires_capabilities: supports_tool_trace}`, "text.contains critical Hi requires=supports_tool_trace"},
	}
	for _, tc := range tests {
		t.Run(tc.item, func(t *testing.T) {
			s, diags := loadSuite(t, map[string]string{"ananke.config.yaml": minimalConfig, "t.ananke.yaml": vocabTest(tc.item)})
			if diags != nil {
				t.Fatal(diags)
			}
			var got []string
			for _, c := range TestChecks(s.Config, s.Tests[0]) {
				got = append(got, describeNamed(c))
			}
			if g := strings.Join(got, " | "); g != tc.want {
				t.Errorf("got  %s\nwant %s", g, tc.want)
			}
		})
	}
}

// TestCatalogDataset: a dataset case takes the catalog's checks, on its
// turn.
func TestCatalogDataset(t *testing.T) {
	s, err := loadDataset(t, map[string]string{"d.ananke.jsonl": `{"id": "x", "input": "hi", "assertions": [{"id": "recall", "type": "memory_recall_same_group", "severity": "warning", "params": {"expect": "Biscuit", "fact": "bullet"}}, {"type": "scheduler_outbound_count", "count": 1}, {"type": "budget", "params": {"max_total_tokens": 5000}}]}` + "\n"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range TurnChecks(s.Config, s.Tests[0], 0) {
		got = append(got, c.ID+" "+describeNamed(c))
	}
	want := "turn[0].recall.text.must_match[0] text.must_match warning Biscuit | turn[0].recall.memory.reads[0] memory.reads warning own content=bullet | turn[0].scheduler.outbound scheduler.outbound critical exactly 1 time | turn[0].budget.max_total_tokens budget.max_total_tokens critical 5000"
	if g := strings.Join(got, " | "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
}

// TestCatalogNames: an item's id names it in messages; without one
// it goes by its place in the list.
func TestCatalogNames(t *testing.T) {
	for _, tc := range []struct {
		items string
		want  []string
	}{
		{`{id: first, type: max_tool_calls, max: 3}, {id: second, type: max_tool_calls, max: 4}`, []string{
			"t.ananke.yaml:4:97: tools.max_calls is set twice: by first (", "t.ananke.yaml:4:53) and by second (", "t.ananke.yaml:4:97); a block holds one",
		}},
		{`{type: scheduler_outbound_count, count: 1}, {type: scheduler_outbound_count, params: {count: 2}}`, []string{
			"t.ananke.yaml:4:58: scheduler.outbound is set twice: by assertions[0] (", "t.ananke.yaml:4:14) and by assertions[1] (", "t.ananke.yaml:4:58); a block holds one",
		}},
	} {
		_, diags := loadSuite(t, map[string]string{"ananke.config.yaml": minimalConfig, "t.ananke.yaml": vocabTest(tc.items)})
		if len(diags) != 1 {
			t.Errorf("%s: diagnostics %s, want one", tc.items, diags)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(diags[0].String(), w) {
				t.Errorf("%s: diagnostic %s\nwant it to contain %q", tc.items, diags[0], w)
			}
		}
	}
}

// TestCatalogErrors: every problem of an item, at its place.
func TestCatalogErrors(t *testing.T) {
	tests := []struct {
		name, item string
		want       []string
	}{
		{"must_call_tool without tool", `{type: must_call_tool}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "tool"`}},
		{"must_not_call_tool without tool", `{type: must_not_call_tool}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "tool"`}},
		{"tool_call_order without tools", `{type: tool_call_order}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "tools"`}},
		{"budget without a bound", `{type: budget}`, []string{`t.ananke.yaml:4:14: assertions[0].budget is empty: add max_input_tokens, max_output_tokens, max_total_tokens or max_cost_usd`}},
		{"budget negative", `{type: budget, max_cost_usd: -1}`, []string{`t.ananke.yaml:4:43: assertions[0].budget.max_cost_usd must be more than 0 US dollars, got -1`}},
		{"max_tool_calls without max", `{type: max_tool_calls}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "max"`}},
		{"output_contains without value", `{type: output_contains}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "value"`}},
		{"output_matches_format without pattern", `{type: output_matches_format}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "pattern"`}},
		{"recall without expect", `{type: memory_recall_same_group, fact: x}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "expect"`}},
		{"outbound without count", `{type: scheduler_outbound_count, match: x}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "count"`}},
		{"retry without max_attempts", `{type: retry_policy_respected, tool: fetch}`, []string{`t.ananke.yaml:4:14: assertions[0] is missing required field "max_attempts"`}},
		{"retry without either", `{type: retry_policy_respected}`, []string{
			`t.ananke.yaml:4:14: assertions[0] is missing required field "max_attempts"`,
			`t.ananke.yaml:4:14: assertions[0] is missing required field "tool"`,
		}},
		{"retry max_attempts 0", `{type: retry_policy_respected, tool: fetch, max_attempts: 0}`, []string{
			`t.ananke.yaml:4:72: assertions[0].max_attempts must be between 1 and 2147483647, got 0`,
		}},
		{"params a list", `{type: max_tool_calls, params: [3]}`, []string{
			`t.ananke.yaml:4:45: assertions[0].params must be a mapping of the assertion's parameters, not a list`,
		}},
		{"params a string", `{type: output_contains, value: x, params: x}`, []string{
			`t.ananke.yaml:4:56: assertions[0].params must be a mapping of the assertion's parameters, not a string`,
		}},
		{"unknown parameter", `{type: max_tool_calls, max: 3, limit: 4}`, []string{
			`t.ananke.yaml:4:45: unknown field "limit" in assertions[0]; known fields: type, severity, id, requires, requires_capabilities, max`,
		}},
		{"unknown parameter in params", `{type: max_tool_calls, params: {max: 3, limit: 4}}`, []string{
			`t.ananke.yaml:4:54: unknown field "limit" in assertions[0]; known fields: type, severity, id, requires, requires_capabilities, max`,
		}},
		{"a parameter inline and in params", `{type: max_tool_calls, max: 3, params: {max: 4}}`, []string{
			`t.ananke.yaml:4:54: "max" is set twice in assertions[0] (first at line 4)`,
		}},
		{"unknown type", `{type: must_call_tools, tool: x}`, []string{
			`t.ananke.yaml:4:21: assertions[0].type "must_call_tools" is not an assertion type (did you mean "must_call_tool"?)`,
		}},
		{"bad severity", `{type: max_tool_calls, max: 3, severity: high}`, []string{
			`t.ananke.yaml:4:55: assertions[0].severity "high" is not one of critical, warning`,
		}},
		{"unknown capability", `{type: max_tool_calls, max: 3, requires_capabilities: [supports_tool_trac]}`, []string{
			`t.ananke.yaml:4:69: assertions[0].requires_capabilities: "supports_tool_trac" is not a capability (known: ` + strings.Join(capabilityNames(), ", ") + `) (did you mean "supports_tool_trace"?)`,
		}},
		{"args_match not a mapping", `{type: must_call_tool, tool: t, args_match: x}`, []string{
			`t.ananke.yaml:4:58: assertions[0].tools.require[0].args_match must be a mapping of argument name to regex, not a string`,
		}},
		{"an argument in args and args_match", `{type: must_call_tool, tool: t, args: {q: a}, args_match: {q: b}}`, []string{
			`t.ananke.yaml:4:73: assertions[0].args_match: argument "q" is also in args; give it in one of them`,
		}},
		{"bad args_match regex", `{type: must_call_tool, tool: t, args_match: {q: "("}}`, []string{
			"t.ananke.yaml:4:62: assertions[0].tools.require[0].args_match.q: invalid regex \"(\": missing closing ): `(`",
		}},
		{"empty id", `{id: '', type: max_tool_calls, max: 3}`, []string{`t.ananke.yaml:4:19: assertions[0].id must not be empty`}},
		{"bad status", `{type: scheduler_task_runs, status: ok}`, []string{
			`t.ananke.yaml:4:50: assertions[0].scheduler.task_runs.status "ok" is not one of success, error`,
		}},
		{"bad fact regex", `{type: memory_recall_same_group, expect: x, fact: '('}`, []string{
			"t.ananke.yaml:4:64: assertions[0].memory.reads[0].content_match: invalid regex \"(\": missing closing ): `(`",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseTest(t, vocabTest(tc.item))
			var got []string
			for _, d := range diags.Sorted() {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func capabilityNames() []string {
	return []string{"supports_tool_trace", "supports_streaming_timing", "supports_state", "supports_reasoning", "supports_memory_events",
		"supports_scheduler_context", "supports_container_metadata", "supports_live_run", "supports_replay", "supports_interrupts", "supports_usage", "supports_model_calls", "supports_spans"}
}

// TestVocabularyIDs: an item's id is its check's id (in its scope, as
// every check's id is), and names each of its checks when it makes
// several; items without an id keep the generic numbering.
func TestVocabularyIDs(t *testing.T) {
	for _, tc := range []struct {
		items string
		test  string // the ids of TestChecks
		turn  string // the ids of TurnChecks(0)
	}{
		{`{id: bash-once, type: must_call_tool, tool: Bash}`, "test.bash-once", ""},
		{`{id: no-leak, type: no_cross_group_memory_use, facts: [Rex, Biscuit]}`,
			"test.no-leak.text.omits[0] test.no-leak.text.omits[1] test.no-leak.memory.forbid[0]",
			"turn[0].test.no-leak.text.omits[0] turn[0].test.no-leak.text.omits[1] turn[0].test.no-leak.memory.forbid[0]"},
		{`{type: output_contains, value: a}, {id: x, type: output_contains, value: b}, {type: output_contains, value: c}`,
			"test.text.contains[0] test.x test.text.contains[1]", ""},
		{`{id: no-delete, type: must_not_call_tool, tool: delete}, {type: must_not_call_tool, tool: drop}`,
			"test.no-delete test.tools.forbid[0]", "turn[0].test.no-delete turn[0].test.tools.forbid[0]"},
		{`{id: lint, type: script, cmd: [./lint.sh]}`, "test.lint", ""},
	} {
		s, diags := loadSuite(t, map[string]string{"ananke.config.yaml": minimalConfig, "t.ananke.yaml": vocabTest(tc.items)})
		if diags != nil {
			t.Fatal(diags)
		}
		ids := func(cs []assertion.Check) string {
			var out []string
			for _, c := range cs {
				out = append(out, c.ID)
			}
			return strings.Join(out, " ")
		}
		if got := ids(TestChecks(s.Config, s.Tests[0])); got != tc.test {
			t.Errorf("%s: test checks %s\nwant %s", tc.items, got, tc.test)
		}
		if got := ids(TurnChecks(s.Config, s.Tests[0], 0)); got != tc.turn {
			t.Errorf("%s: turn checks %s\nwant %s", tc.items, got, tc.turn)
		}
	}
}

// TestVocabularyIDErrors: an id names one assertion, and cannot pass for
// a built-in check's.
func TestVocabularyIDErrors(t *testing.T) {
	for _, tc := range []struct {
		items, want string
	}{
		{`{id: a, type: output_contains, value: x}, {id: a, type: output_omits, value: y}`,
			`t.ananke.yaml:4:61: assertions[1].id "a" is also the id of assertions[0]; an id names one assertion in the results`},
		{`{id: grounded, type: output_contains, value: x}`,
			`t.ananke.yaml:4:19: assertions[0].id "grounded" would read as a built-in check's id; choose another`},
		{`{id: tools.require, type: output_contains, value: x}`,
			`t.ananke.yaml:4:19: assertions[0].id "tools.require" would read as a built-in check's id; choose another`},
		{`{id: "target.text.must_match", type: output_contains, value: x}`,
			`t.ananke.yaml:4:19: assertions[0].id "target.text.must_match" would read as a built-in check's id; choose another`},
		{`{id: "x[0]", type: output_contains, value: x}`,
			`t.ananke.yaml:4:19: assertions[0].id "x[0]" would read as a built-in check's id; choose another`},
	} {
		_, diags := parseTest(t, vocabTest(tc.items))
		if got := diags.Sorted().Error(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.items, got, tc.want)
		}
	}
}
