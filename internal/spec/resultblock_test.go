package spec

import (
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/vars"
)

const mcpConfig = `version: "1.2"
target: {type: mcp, transport: stdio, command: [srv]}
`

func TestResultChecks(t *testing.T) {
	s, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": mcpConfig + "assertions:\n  ok: {result: {is_error: false}}\n",
		"t.ananke.yaml": `version: "1.2"
name: mcp
hooks: [{cmd: [echo, "{}"]}]
turns:
  - type: mcp:call
    tool: echo
    arguments: {message: hi}
    assert:
      extends: ok
      result:
        match: "hi"
        not_match: "(?i)error"
        json_path:
          - {path: "$.content[0].text", equals: "Echo: ${WORD}"}
          - {path: "$.isError", exists: false}
        max_duration_ms: 2000
  - type: mcp:list_tools
    assert:
      tools_list:
        include: [echo, add]
        exclude: dangerous
        valid_schemas: true
assert:
  result: {is_error: false}
`,
	})
	if diags != nil {
		t.Fatal(diags)
	}
	tt := s.Tests[0]
	r := tt.Turns[0].Assert
	if m := payloads[assertion.Pattern](r, assertion.KindResultMatch); len(m) != 1 || m[0].Regex.String() != "hi" ||
		len(r.Items(assertion.KindResultNotMatch)) != 1 || len(r.Items(assertion.KindResultJSONPath)) != 2 ||
		payloads[assertion.Limit](r, assertion.KindResultMaxDuration)[0].Ms != 2000 || len(r.Items(assertion.KindResultIsError)) != 0 {
		t.Fatalf("result = %+v", r)
	}
	tl := tt.Turns[1].Assert
	if len(tl.Items(assertion.KindToolsListInclude)) != 2 || payloads[assertion.Tool](tl, assertion.KindToolsListExclude)[0].Name.Value != "dangerous" ||
		!payloads[assertion.Switch](tl, assertion.KindToolsListValidSchemas)[0].Value {
		t.Fatalf("tools_list = %+v", tl)
	}
	var got []string
	for _, c := range TurnChecks(s.Config, tt, 0) {
		got = append(got, string(c.Kind)+" "+c.ID+" "+c.Pos.String()[len(c.Pos.File):])
	}
	want := []string{
		"result.match turn[0].result.match :11:16",
		"result.not_match turn[0].result.not_match :12:20",
		"result.json_path turn[0].result.json_path[0] :14:13",
		"result.json_path turn[0].result.json_path[1] :15:13",
		"result.max_duration_ms turn[0].result.max_duration_ms :16:26",
		"result.is_error turn[0].result.is_error :4:27",
	}
	if !slices.Equal(got, want) {
		t.Errorf("turn 0 checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = nil
	for _, c := range TurnChecks(s.Config, tt, 1) {
		got = append(got, c.ID)
	}
	if want := []string{"turn[1].tools_list.include[0]", "turn[1].tools_list.include[1]", "turn[1].tools_list.exclude[0]", "turn[1].tools_list.valid_schemas"}; !slices.Equal(got, want) {
		t.Errorf("turn 1 checks = %v, want %v", got, want)
	}
	test := TestChecks(s.Config, tt)
	if len(test) != 1 || test[0].ID != "test.result.is_error" || test[0].Payload.(assertion.Flag).Value {
		t.Errorf("test checks = %+v", test)
	}
	// equals references are bound like text.json_path's.
	v := vars.NewVars(nil)
	v.Set("WORD", "hi")
	bound, err := assertion.BindChecks(TurnChecks(s.Config, tt, 0), v)
	if err != nil || string(bound[2].Payload.(*assertion.JSONPathCheck).Want) != `"Echo: hi"` {
		t.Errorf("bound equals = %+v, %v", bound[2].Payload, err)
	}
}

func TestResultCheckErrors(t *testing.T) {
	for _, tc := range []struct {
		name, version, block string
		want                 []string
	}{
		{"result in 1.1", "1.1", "result: {is_error: true}", []string{`5:22: the result section needs version "1.2" or later; this file says "1.1"`}},
		{"tools_list in 1.0", "1.0", "tools_list: {include: x}", []string{`5:26: the tools_list section needs version "1.2" or later; this file says "1.0"`}},
		{"empty result", "1.2", "result: {}", []string{"5:22: turns[0].assert.result is empty: add match, not_match, json_path, is_error or max_duration_ms"}},
		{"bad values", "1.2", "result: {match: \"(\", is_error: 1, max_duration_ms: false, json_path: [{path: x}], typo: 1}",
			[]string{`5:30: turns[0].assert.result.match: invalid regex "(": missing closing ): ` + "`(`",
				"5:45: turns[0].assert.result.is_error must be true or false, not a number",
				"5:65: turns[0].assert.result.max_duration_ms: false has nothing to disable here; remove it",
				"5:84: turns[0].assert.result.json_path[0] says nothing to check: add equals, match, type or exists",
				`5:91: turns[0].assert.result.json_path[0].path "x" must start at the root, $ (e.g. $.status)`,
				`5:96: unknown field "typo" in turns[0].assert.result; known fields: match, not_match, json_path, is_error, max_duration_ms`}},
		{"empty tools_list", "1.2", "tools_list: {}", []string{"5:26: turns[0].assert.tools_list is empty: add include, exclude or valid_schemas"}},
		{"include and exclude", "1.2", "tools_list: {include: [a, b], exclude: [b], valid_schemas: yes}",
			[]string{"5:54: turns[0].assert.tools_list: `b` is both included and excluded",
				"5:73: turns[0].assert.tools_list.valid_schemas must be true or false, not a string"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseTest(t, "version: \""+tc.version+"\"\nname: n\nturns:\n  - type: agui:connect\n    assert: {"+tc.block+"}\n")
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

// TestResultExtendsClash: result's single-valued fields clash when two
// merged blocks set them.
func TestResultExtendsClash(t *testing.T) {
	_, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": mcpConfig + "assertions:\n  a: {result: {match: x}, tools_list: {valid_schemas: true}}\n",
		"t.ananke.yaml":      "version: \"1.2\"\nname: t\nturns:\n  - type: mcp:list_tools\n    assert: {extends: a, result: {match: y}, tools_list: {valid_schemas: false}}\n",
	})
	for _, want := range []string{
		"t.ananke.yaml:5:23: result.match is set twice",
		"t.ananke.yaml:5:23: tools_list.valid_schemas is set twice",
	} {
		if !hasDiag(diags, want) {
			t.Errorf("diagnostics:\n%s\nwant %q", diags, want)
		}
	}
}
