package spec

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// loadDataset loads a suite of one dataset (and any other files) written
// under a temp dir, with a config that has a model.
func loadDataset(t *testing.T, files map[string]string) (*Suite, error) {
	t.Helper()
	if _, ok := files["ananke.config.yaml"]; !ok {
		files["ananke.config.yaml"] = minimalConfig + "model: {endpoint: \"http://127.0.0.1:1/v1\", name: m}\n"
	}
	dir := writeFiles(t, files)
	return Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
}

func TestDatasetCases(t *testing.T) {
	s, err := loadDataset(t, map[string]string{
		"receipt.png": "\x89PNG\r\n\x1a\nfake",
		"cases/d.ananke.jsonl": `{"id": "T1", "input": "Hello", "assertions": [{"type": "contains", "value": "Hi"}]}

{"id": "T2", "name": "with history", "input": [{"role": "user", "content": "I want to submit an expense"}, {"role": "assistant", "content": "Which kind?"}, {"role": "user", "content": [{"type": "text", "text": "This one"}, {"type": "image", "source": "file://../receipt.png"}]}], "tags": ["smoke"], "options": {"mode": "fast"}}
{"id": "T3", "input": {"role": "user", "content": "Hi"}, "before": {"cmd": ["./seed.sh"]}, "after": [{"cmd": ["./clean.sh", "${USER_ID}"], "timeout_ms": 500}], "skip": "not yet"}
{"id": "T4", "simulator": {"goal": "buy"}, "max_turns": 3, "timeout": "2m", "checkpoints": [{"id": "a", "assertion": {"type": "tool_called", "name": "buy"}}], "assertions": [{"type": "not_tool_called", "name": "refund"}]}
`,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tests) != 4 {
		t.Fatalf("got %d tests, want 4", len(s.Tests))
	}
	t1, t2, t3, t4 := s.Tests[0], s.Tests[1], s.Tests[2], s.Tests[3]
	checks := []struct{ what, got, want string }{
		{"T1 id", t1.ID, "cases/d/T1"},
		{"T1 name", t1.Name.Value, "T1: Hello"},
		{"T1 line", fmt.Sprint(t1.Pos.Line), "1"},
		{"T2 line", fmt.Sprint(t2.Pos.Line), "3"},
		{"T2 name", t2.Name.Value, "with history"},
		{"T2 history", fmt.Sprint(len(t2.History), " ", t2.History[0].Role, " ", t2.History[1].Role), "2 user assistant"},
		{"T2 user text", t2.Turns[0].User.Raw, "This one"},
		{"T2 parts", fmt.Sprint(len(t2.Turns[0].Parts)), "2"},
		{"T2 file", fmt.Sprint(t2.Turns[0].Parts[1].File.Name, " ", t2.Turns[0].Parts[1].File.MIME, " ", t2.Turns[0].Parts[1].File.Kind), "receipt.png image/png image"},
		{"T2 tags", t2.Tags[0].Value, "smoke"},
		{"T2 options", fmt.Sprint(!t2.ForwardedProps.IsZero()), "true"},
		{"T3 hooks", fmt.Sprint(len(t3.Hooks), len(t3.After), t3.After[0].TimeoutMs), "1 1 500"},
		{"T3 skip", t3.Skip, "not yet"},
		{"T4 dynamic", fmt.Sprint(t4.Simulator != nil, t4.MaxTurns, t4.SimulatorTimeoutMs, len(t4.Turns)), "true 3 120000 0"},
		{"T4 checkpoint", fmt.Sprint(len(t4.Checkpoints), t4.Checkpoints[0].Assert != nil), "1 true"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
		}
	}
	// The case's assertions are its turn's; a dynamic case's the test's.
	kinds := func(cs []assertion.Check) string {
		var out []string
		for _, c := range cs {
			out = append(out, fmt.Sprintf("%s@%d:%d", c.ID, c.Pos.Line, c.Pos.Col))
		}
		return strings.Join(out, " ")
	}
	if got, want := kinds(TurnChecks(s.Config, t1, 0)), "turn[0].text.contains[0]@1:77"; got != want {
		t.Errorf("T1 turn checks = %s, want %s", got, want)
	}
	if got, want := kinds(TestChecks(s.Config, t4)), "test.tools.forbid[0]@5:211"; got != want {
		t.Errorf("T4 test checks = %s, want %s", got, want)
	}
	if got, want := kinds(CheckpointChecks(s.Config, t4, &t4.Checkpoints[0], 0)), "turn[0].checkpoints.a.tools.require[0]@5:118"; got != want {
		t.Errorf("T4 checkpoint checks = %s, want %s", got, want)
	}
}

// TestVocabulary maps each assertion type onto the check it means.
func TestVocabulary(t *testing.T) {
	tests := []struct {
		item string
		want string // kind, severity, and what the check holds
	}{
		{`{"type": "contains", "value": "Hi"}`, "text.contains critical Hi"},
		{`{"type": "contains", "value": ["a", "b"], "case_sensitive": true}`, "text.contains critical a cs | text.contains critical b cs"},
		{`{"type": "equals", "value": "OK", "severity": "warning"}`, "text.equals warning OK"},
		{`{"type": "regex", "pattern": "order-\\d+"}`, `text.must_match critical order-\d+`},
		{`{"type": "json_path", "path": "$.status", "value": "ok"}`, `text.json_path critical $.status = "ok"`},
		{`{"type": "json_path", "path": "$.a", "value": {"b": [1, 2]}}`, `text.json_path critical $.a = {"b":[1,2]}`},
		{`{"type": "type", "path": "$.count", "value": "number"}`, "text.json_path critical $.count : number"},
		{`{"type": "tool_called", "name": "create"}`, "tools.require critical create"},
		{`{"type": "tool_called", "name": "create", "args": {"amount": 3500, "who": {"name": "A.B"}, "tags": ["x"], "ok": true, "n": null, "id": "${ENV.ID}"}}`,
			`tools.require critical create amount=^3500$ who.name=^A\.B$ tags.0=^x$ ok=^true$ n=^null$ id=^${ENV.ID}$`},
		{`{"type": "not_tool_called", "name": "delete", "severity": "warning"}`, "tools.forbid warning delete"},
		{`{"type": "agent", "criteria": "is polite"}`, "judge warning is polite"},
		{`{"type": "agent", "criteria": ["a", "b"], "severity": "critical"}`, "judge critical a;b"},
		{`{"type": "script", "cmd": ["./check.sh", "x"], "timeout_ms": 500}`, "script critical ./check.sh x 500"},
		{`{"type": "ananke", "assert": {"tools": {"max_calls": 3}}, "severity": "warning"}`, "tools.max_calls warning 3"},
	}
	for _, tt := range tests {
		t.Run(tt.item, func(t *testing.T) {
			s, err := loadDataset(t, map[string]string{"d.ananke.jsonl": `{"id": "x", "input": "hi", "assertions": [` + tt.item + `]}`})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range TurnChecks(s.Config, s.Tests[0], 0) {
				got = append(got, describeCheck(c))
			}
			if g := strings.Join(got, " | "); g != tt.want {
				t.Errorf("got  %s\nwant %s", g, tt.want)
			}
		})
	}
}

func describeCheck(c assertion.Check) string {
	s := string(c.Kind) + " " + string(c.Severity)
	switch p := c.Payload.(type) {
	case *assertion.TextCheck:
		s += " " + p.Value.Raw
		if p.CaseSensitive {
			s += " cs"
		}
	case assertion.Pattern:
		s += " " + p.Regex.Raw
	case *assertion.JSONPathCheck:
		if p.Type != "" {
			s += " " + p.Path + " : " + p.Type
		} else {
			js, _ := p.Equals.Resolve(vars.NewVars(nil))
			s += " " + p.Path + " = " + string(js)
		}
	case *assertion.Require:
		s += " " + p.Name.Value
		for _, a := range p.ArgsMatch {
			s += " " + a.Path + "=" + a.Regex.Raw
		}
	case assertion.Tool:
		s += " " + p.Name.Value
	case *assertion.JudgeCheck:
		s += " " + strings.Join(p.Criteria, ";")
	case *assertion.ScriptCheck:
		s += fmt.Sprintf(" %s %d", strings.Join(p.Argv, " "), p.Script.TimeoutMs)
	case assertion.Limit:
		s += fmt.Sprint(" ", p.Ms)
	case assertion.Dollars:
		s += fmt.Sprint(" $", p.USD)
	}
	return s
}

// TestVocabularyArgsMatchExactly: a tool_called's args match the value
// exactly, not as a pattern or a prefix.
func TestVocabularyArgsMatchExactly(t *testing.T) {
	s, err := loadDataset(t, map[string]string{"d.ananke.jsonl": `{"id": "x", "input": "hi", "assertions": [{"type": "tool_called", "name": "t", "args": {"city": "Par.s", "n": 35}}]}`})
	if err != nil {
		t.Fatal(err)
	}
	req := TurnChecks(s.Config, s.Tests[0], 0)[0].Payload.(*assertion.Require)
	city, n := req.ArgsMatch[0].Regex.Compiled(), req.ArgsMatch[1].Regex.Compiled()
	for _, c := range []struct {
		got  bool
		want bool
		what string
	}{
		{city.MatchString("Par.s"), true, "Par.s matches itself"},
		{city.MatchString("Paris"), false, "the dot is literal"},
		{city.MatchString("Par.s!"), false, "anchored at the end"},
		{n.MatchString("35"), true, "35"},
		{n.MatchString("350"), false, "350 is not 35"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v", c.what, c.got)
		}
	}
}

// TestDatasetErrors: every problem of every line, at its line and column,
// all at once.
func TestDatasetErrors(t *testing.T) {
	lines := []struct {
		line string
		want string // "col: message" substring
	}{
		{`{"id": "a", "input": "x", "assertions": [{"type": "contain", "value": "x"}]}`, `1:51: assertions[0].type "contain" is not an assertion type (did you mean "contains"?)`},
		{`{"id": "b", "input": [{"role": "assistant", "content": "x"}]}`, `2:23: input[0]: the last message of input is the one the agent answers, so its role must be user, not "assistant"`},
		{`{"id": "c", "input": "x", "asserts": []}`, `3:27: unknown field "asserts" in case (did you mean "assert"?)`},
		{`{"id": "d", "input": "x" "y"}`, `4:26: invalid JSON: invalid character '"' after object key:value pair`},
		{`{"id": "e", "input": [{"role": "user", "content": [{"type": "image", "source": "file://missing.png"}]}]}`, `5:80: input[0].content[0].source: `},
		{`["x"]`, `6:1: a line holds one test case, a JSON object`},
		{`{"id": "a", "input": "dup"}`, `7:1: case id "a" is also used on line 1`},
		{`{"input": "no id"}`, `8:1: case is missing required field "id"`},
		{`{"id": "f"}`, `9:1: case is missing required field "input" (or a simulator)`},
		{`{"id": "g", "input": "x", "assertions": [{"type": "equals", "value": "a"}, {"type": "equals", "value": "b"}]}`, `10:104: text.equals is set twice: by assertions[0] (`},
		{`{"id": "h", "input": "x", "assertions": [{"value": "x"}]}`, `11:42: assertions[0] is missing required field "type"`},
		{`{"id": "i", "input": "x", "assertions": [{"type": "tool_called", "name": "t", "args": {"a.b": 1}}]}`, `11:42`},
		{`{"id": "j", "input": "x", "assertions": [{"type": "type", "path": "$.x", "value": "numbr"}]}`, `13:83: assertions[0].text.json_path[0].type "numbr" is not one of`},
		{`{"id": "k", "input": "x", "a": 1, "a": 2}`, `14:35: invalid JSON: key "a" appears twice in one object`},
		{`{"id": "l", "input": "x", "timeout": "soon"}`, `15:38: timeout "soon" is not a positive duration`},
		{`{"id": "m/n", "input": "x"}`, `16:8: id "m/n" cannot contain / or \`},
		{`{"id": "o", "input": "x", "before": "./seed.sh"}`, `17:37: before takes a hook`},
		{`{"id": "p", "input": [{"role": "user", "content": [{"type": "text"}]}]}`, `18:52: input[0].content[0] is missing required field "text"`},
		{`{"id": "q", "input": "x", "assertions": [{"type": "agent", "criteria": "c"}, {"type": "agent", "criteria": "d"}]}`, `19:78: judge is set twice`},
		{`{"id": "r", "input": "x"} trailing`, `20:27: invalid JSON`},
	}
	var src []string
	for _, l := range lines {
		src = append(src, l.line)
	}
	_, err := loadDataset(t, map[string]string{"d.ananke.jsonl": strings.Join(src, "\n") + "\n"})
	var diags diag.Diagnostics
	if !asDiags(err, &diags) {
		t.Fatalf("want diagnostics, got %v", err)
	}
	text := diags.Error()
	for _, l := range lines {
		if !strings.Contains(text, "d.ananke.jsonl:"+l.want) {
			t.Errorf("missing %q in:\n%s", l.want, text)
		}
	}
	if !strings.Contains(text, "missing.png: cannot read file: no such file or directory") {
		t.Errorf("the missing attachment's cause is not named:\n%s", text)
	}
	// The args line is reported at the argument, not at the item.
	if !strings.Contains(text, `:12:88: assertions[0].args: argument name "a.b" cannot be matched`) {
		t.Errorf("args_match error misplaced:\n%s", text)
	}
}

func asDiags(err error, d *diag.Diagnostics) bool {
	ds, ok := err.(diag.Diagnostics)
	*d = ds
	return ok
}

func TestDatasetFileProblems(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"empty", "\n\n  \n", "1:1: dataset is empty"},
		{"binary", "{\"id\": \"a\"}\x00", "1:1: not a text file"},
		{"latin1", "{\"id\": \"\xe9\"}", "1:1: file is not valid UTF-8"},
		{"bom and crlf", "\uFEFF{\"id\": \"a\", \"input\": \"x\"}\r\n{\"id\": \"b\", \"input\": \"y\"}\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := loadDataset(t, map[string]string{"d.ananke.jsonl": tt.content})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(s.Tests) != 2 || s.Tests[1].Turns[0].User.Raw != "y" {
					t.Fatalf("got %d tests", len(s.Tests))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "d.ananke.jsonl:"+tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestJSONNode checks positions and values against encoding/json for
// what YAML would read differently.
func TestJSONNode(t *testing.T) {
	line := `{"a": 1, "b": "x\/y", "c": "é\ud83d\ude00", "d": [1.5, true, null, {"e": "f"}]}`
	n, d := decode.JSONNode([]byte(line), 7)
	if d != nil {
		t.Fatal(d)
	}
	var got []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		got = append(got, fmt.Sprintf("%s@%d:%d=%s/%s@%d", k.Value, k.Line, k.Column, v.ShortTag(), v.Value, v.Column))
	}
	want := []string{"a@7:2=!!int/1@7", "b@7:10=!!str/x/y@15", "c@7:23=!!str/é😀@28", "d@7:45=!!seq/@50"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	arr := n.Content[7]
	if tags := fmt.Sprint(arr.Content[0].ShortTag(), arr.Content[1].ShortTag(), arr.Content[2].ShortTag(), arr.Content[3].Content[1].Value); tags != "!!float!!bool!!nullf" {
		t.Errorf("array items = %s", tags)
	}
	for _, bad := range []struct{ src, want string }{
		{`{"a": }`, "7:7: invalid JSON: invalid character '}' looking for beginning of value"},
		{`{"a": 1`, "7:8: invalid JSON: the line ends before the JSON value does"},
		{`{"a": 1} {}`, "7:10: invalid JSON: a line holds one JSON value; more follows it"},
		{`{"é": "x", "é": 2}`, `7:12: invalid JSON: key "é" appears twice in one object`},
	} {
		_, d := decode.JSONNode([]byte(bad.src), 7)
		if d == nil || fmt.Sprintf("%d:%d: %s", d.Pos.Line, d.Pos.Col, d.Message) != bad.want {
			t.Errorf("%s: got %v, want %s", bad.src, d, bad.want)
		}
	}
}

// TestAttachments: files are read when the suite loads, typed by
// extension or content, and a bad one is a load error at its source.
func TestAttachments(t *testing.T) {
	big := strings.Repeat("x", MaxAttachmentBytes+1)
	dir := writeFiles(t, map[string]string{"a.pdf": "%PDF-1.4", "noext": "\x89PNG\r\n\x1a\n....", "notes.txt": "Total: $85.50"})
	if err := os.WriteFile(filepath.Join(dir, "big.png"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		part, want string
	}{
		{`{"type": "file", "source": "file://a.pdf"}`, "a.pdf application/pdf document 8"},
		{`{"type": "file", "source": "file://noext"}`, "noext image/png image 12"},
		{`{"type": "file", "source": "file://notes.txt", "mimeType": "text/x-receipt"}`, "notes.txt text/x-receipt document 13"},
		{`{"type": "image", "source": "file://` + filepath.ToSlash(filepath.Join(dir, "noext")) + `"}`, "noext image/png image 12"},
		{`{"type": "image", "source": "file://a.pdf"}`, "a.pdf is application/pdf, not an image; use type file"},
		{`{"type": "file", "source": "file://big.png"}`, "big.png: file is larger than 20 MiB"},
		{`{"type": "file", "source": "https://example.com/x.png"}`, `must be a file:// path`},
		{`{"type": "file", "source": "file://."}`, ": it is a directory, not a file"},
		{`{"type": "video", "source": "file://a.pdf"}`, `type "video" is not one of text, image, file`},
		{`{"type": "file", "source": "file://a.pdf", "text": "x"}`, "a file part has no text"},
	}
	for _, tt := range tests {
		t.Run(tt.part, func(t *testing.T) {
			p := filepath.Join(dir, "d.ananke.jsonl")
			if err := os.WriteFile(p, []byte(`{"id": "x", "input": [{"role": "user", "content": [`+tt.part+`]}]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			var diags diag.Diagnostics
			tests := LoadDataset(p, dir, &diags)
			if len(diags) > 0 {
				if !strings.Contains(diags.Error(), tt.want) {
					t.Fatalf("got %v, want %q", diags, tt.want)
				}
				return
			}
			f := tests[0].Turns[0].Parts[0].File
			if got := fmt.Sprint(f.Name, " ", f.MIME, " ", f.Kind, " ", len(f.Data)); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestUserParts: YAML tests take the same parts, in turns and history.
func TestUserParts(t *testing.T) {
	dir := writeFiles(t, map[string]string{"r.txt": "hello"})
	tt, diags := parseTestAt(t, filepath.Join(dir, "t.ananke.yaml"), `version: "1.0"
name: parts
history:
  - {role: user, content: [{type: file, source: "file://r.txt"}]}
  - {role: assistant, content: [{type: text, text: "no"}]}
turns:
  - user: [{type: text, text: "Read ${X}"}, {type: file, source: "file://r.txt"}]
`)
	if len(diags) != 1 || !strings.Contains(diags[0].String(), "5:32: history[1]: only a user message may be a list of parts") {
		t.Fatalf("diagnostics: %v", diags)
	}
	turn := tt.Turns[0]
	if turn.User.Raw != "Read ${X}" || len(turn.User.Refs()) != 1 || len(turn.Parts) != 2 || turn.Parts[1].File.MIME != "text/plain" {
		t.Fatalf("turn = %+v", turn)
	}
	if tt.History[0].Parts[0].File.Name != "r.txt" {
		t.Fatalf("history = %+v", tt.History[0])
	}
}

func parseTestAt(t *testing.T, path, src string) (*Test, diag.Diagnostics) {
	t.Helper()
	var diags diag.Diagnostics
	l := newLoader(path, &diags)
	doc := l.ParseBytes([]byte(src))
	if doc == nil {
		t.Fatalf("unparsable: %v", diags)
	}
	return l.test(doc), diags
}

// TestSuiteHookRefs: before_all variables reach every test; its first hook
// and after_all without before_all only see the environment.
func TestSuiteHookRefs(t *testing.T) {
	test := `version: "1.0"
name: t
turns: [{user: "${TOKEN}"}]
`
	tests := []struct {
		config, want string
	}{
		{"before_all: [{cmd: [./a.sh]}, {cmd: [./b.sh, \"${TOKEN}\"]}]\nafter_all: [{cmd: [./c.sh, \"${TOKEN}\"]}]\n", ""},
		{"before_all: [{cmd: [./a.sh, \"${TOKEN}\"]}]\n", "the first before_all hook runs before any hook has set a variable"},
		{"after_all: [{cmd: [./c.sh, \"${TOKEN}\"]}]\n", "only before_all hooks set variables after_all sees"},
		{"", "unknown variable ${TOKEN}: this test has no hooks to set it"},
	}
	for _, tt := range tests {
		dir := writeFiles(t, map[string]string{"ananke.config.yaml": minimalConfig + tt.config, "t.ananke.yaml": test})
		_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.config, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: got %v, want %q", tt.config, err, tt.want)
		}
	}
}

// TestAdHoc: -i "message" is one test of the config's target, or of a
// default target at --endpoint.
func TestAdHoc(t *testing.T) {
	dir := writeFiles(t, map[string]string{"ananke.config.yaml": minimalConfig + "  assert: {text: {must_not_match: [\"(?i)error\"]}}\n"})
	s, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml"), Message: "Hello ${X}", Endpoint: "http://127.0.0.1:9/agent"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tests) != 1 || s.Tests[0].ID != AdHocID || s.Tests[0].Turns[0].User.Raw != "Hello ${X}" || len(s.Tests[0].Turns[0].User.Refs()) != 0 {
		t.Fatalf("tests = %+v", s.Tests)
	}
	if s.Config.Target.Endpoint.Raw != "http://127.0.0.1:9/agent" || len(TurnChecks(s.Config, s.Tests[0], 0)) != 1 {
		t.Fatalf("endpoint %q, checks %v", s.Config.Target.Endpoint.Raw, TurnChecks(s.Config, s.Tests[0], 0))
	}
	s, err = Load(Options{Message: "Hi", Endpoint: "http://127.0.0.1:9/agent"})
	if err != nil || s.Config.Target.AgentID.Raw != DefaultAgentID || s.Tests[0].Path != "-i" {
		t.Fatalf("no config: %v %+v", err, s)
	}
	if _, err := Load(Options{Message: "Hi", Endpoint: "ftp://x"}); err == nil || !strings.Contains(err.Error(), "not an http:// or https:// URL") {
		t.Fatalf("bad endpoint: %v", err)
	}
	if _, err := Load(Options{Message: "Hi"}); err == nil {
		t.Fatal("no config and no endpoint loaded")
	}
}

// TestDatasetJSONShape: what a case's options become is the JSON written.
func TestDatasetJSONShape(t *testing.T) {
	s, err := loadDataset(t, map[string]string{"d.ananke.jsonl": `{"id": "x", "input": "hi", "options": {"metadata": {"n": 1.50, "s": "${ENV.HOME}"}}}`})
	if err != nil {
		t.Fatal(err)
	}
	js, err := s.Tests[0].ForwardedProps.Resolve(vars.NewVars(func(string) (string, bool) { return "/h", true }))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(js, &v); err != nil || string(js) != `{"metadata":{"n":1.50,"s":"/h"}}` {
		t.Fatalf("options = %s (%v)", js, err)
	}
}

// TestAttemptVarRefs: ${ANANKE_TEST}, the attempt's token for the
// backend, is known before any hook runs, in a test and in the config's
// target; another variable is not.
func TestAttemptVarRefs(t *testing.T) {
	for _, tt := range []struct {
		config, test, want string
	}{
		{"", `turns: [{user: "my token is ${ANANKE_TEST}"}]` + "\n", ""},
		{"  forwardedProps: {test: \"${ANANKE_TEST}\"}\n", "turns: [{user: hi}]\n", ""},
		{"", "hooks: [{cmd: [./a.sh, \"${ANANKE_TEST}\"]}]\nturns: [{user: hi}]\n", ""},
		{"  forwardedProps: {test: \"${ANANKE_TESTS}\"}\n", "turns: [{user: hi}]\n", "unknown variable ${ANANKE_TESTS}"},
	} {
		dir := writeFiles(t, map[string]string{"ananke.config.yaml": minimalConfig + tt.config, "t.ananke.yaml": "version: \"1.0\"\nname: t\n" + tt.test})
		_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q %q: %v", tt.config, tt.test, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q %q: got %v, want %q", tt.config, tt.test, err, tt.want)
		}
	}
}
