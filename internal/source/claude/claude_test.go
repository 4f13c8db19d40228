package claude

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/capability"

	"github.com/ananke/action/internal/trace"
)

const sessionID = "6513270e-269e-4d37-b2a7-4de452e6b438"

// ms is the Unix ms of a timestamp of the test transcript.
func ms(t *testing.T, ts string) int64 {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, "2025-11-19T"+ts+"Z")
	if err != nil {
		t.Fatal(err)
	}
	return at.UnixMilli()
}

func readSession(t *testing.T) *trace.Trace {
	t.Helper()
	tr, err := Read(filepath.Join("testdata", "session.jsonl"), "session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestReadSession(t *testing.T) {
	tr := readSession(t)
	if len(tr.Turns) != 2 {
		t.Fatalf("%d turns, want 2", len(tr.Turns))
	}
	t0, t1 := &tr.Turns[0], &tr.Turns[1]
	call := func(turn, i int) trace.ToolCall {
		if i >= len(tr.Turns[turn].ToolCalls) {
			t.Fatalf("turn %d has %d tool calls", turn, len(tr.Turns[turn].ToolCalls))
		}
		return tr.Turns[turn].ToolCalls[i]
	}
	origins := func(tu *trace.Turn) []string {
		var out []string
		for _, e := range tu.Events {
			out = append(out, e.Origin)
		}
		return out
	}
	types := func(tu *trace.Turn) []string {
		var out []string
		for _, e := range tu.Events {
			out = append(out, e.Type)
		}
		return out
	}
	failed := "Exit code 1\n--- FAIL: TestParse (0.00s)\n    parser_test.go:5: got 2, want 3\nFAIL"
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"indexes and kinds", []any{t0.Index, t0.Kind, t1.Index, t1.Kind}, []any{0, "user", 1, "user"}},
		{"user events", []int64{t0.UserSeq, t1.UserSeq}, []int64{2, 11}},
		{"user texts", []string{t0.UserText, t1.UserText},
			[]string{"Fix the failing test in parser_test.go", "Now run the linter\nand report what it finds."}},
		{"texts of turn 0", t0.Texts, []string{"I'll look at the failing test first.",
			"The parser drops the last operand: `Parse(\"1 + 2\")` returns 2. The loop in parser.go stops one token early."}},
		{"texts of turn 1", t1.Texts, []string{"The linter reports no issues."}},
		{"first text", []int64{t0.FirstTextMs, t0.FirstTextSeq, t1.FirstTextMs, t1.FirstTextSeq},
			[]int64{ms(t, "22:53:38.640"), 4, ms(t, "22:54:29.640"), 16}},
		{"turn times", []int64{t0.StartMs, t0.EndMs, t1.StartMs, t1.EndMs},
			[]int64{ms(t, "22:53:34.908"), ms(t, "22:54:10.002"), ms(t, "22:54:12.330"), ms(t, "22:55:05.118")}},
		{"runs of turn 0", t0.Runs, []trace.Run{{RunID: sessionID, StartMs: ms(t, "22:53:34.908"), EndMs: ms(t, "22:54:10.002"),
			FirstSeq: 1, Frames: 10, FirstEventMs: ms(t, "22:53:38.112")}}},
		{"runs of turn 1", t1.Runs, []trace.Run{{RunID: sessionID, StartMs: ms(t, "22:54:12.330"), EndMs: ms(t, "22:55:05.118"),
			FirstSeq: 11, Frames: 11, FirstEventMs: ms(t, "22:54:15.781")}}},
		{"tool call count", []int{len(t0.ToolCalls), len(t1.ToolCalls)}, []int{2, 2}},
		{"read call", call(0, 0), trace.ToolCall{ID: "toolu_01D7FsLk2nQpWx9cVbR4tYhE", Name: "Read", Turn: 0,
			Args: `{"file_path":"/home/dev/calc/parser_test.go"}`, ArgsJSON: true,
			Result:    &trace.Result{Content: "     1→package calc\n     2→\n     3→func TestParse(t *testing.T) {\n     4→\tgot := Parse(\"1 + 2\")\n"},
			StartedMs: ms(t, "22:53:39.020"), EndedMs: ms(t, "22:53:39.020"), TimestampMs: ms(t, "22:53:39.105"),
			StartSeq: 5, EndSeq: 5, ResultSeq: 6}},
		{"failed call", call(0, 1), trace.ToolCall{ID: "toolu_01Kq8mTzP4vRn2WcYx6bLfJd", Name: "Bash", Turn: 0,
			Args: `{"command":"go test ./...","description":"Run the tests"}`, ArgsJSON: true,
			Result:    &trace.Result{Content: failed, Error: failed},
			StartedMs: ms(t, "22:53:42.300"), EndedMs: ms(t, "22:53:42.300"), TimestampMs: ms(t, "22:53:44.870"),
			StartSeq: 7, EndSeq: 7, ResultSeq: 8}},
		{"task call, not the subagent's", call(1, 0), trace.ToolCall{ID: "toolu_01Wb3nHy6QsTd8VkPz2xMcRf", Name: "Task", Turn: 1,
			Args:      `{"description":"Run linter","prompt":"Run golangci-lint on the repo and report findings","subagent_type":"general-purpose"}`,
			ArgsJSON:  true,
			Result:    &trace.Result{Content: "golangci-lint reported no issues."},
			StartedMs: ms(t, "22:54:15.781"), EndedMs: ms(t, "22:54:15.781"), TimestampMs: ms(t, "22:54:27.118"),
			StartSeq: 12, EndSeq: 12, ResultSeq: 15}},
		{"the subagent's call, its own", call(1, 1), trace.ToolCall{ID: "toolu_01Zy9Xw8Vu7Ts6Rq5Po4Nm3L", Name: "Bash", Turn: 1, Agent: "a3f9c2e1",
			Args: `{"command":"golangci-lint run ./...","description":"Run the linter"}`, ArgsJSON: true,
			StartedMs: ms(t, "22:54:18.440"), EndedMs: ms(t, "22:54:18.440"), TimestampMs: ms(t, "22:54:18.440"), StartSeq: 14, EndSeq: 14}},
		{"run errors", [][]trace.RunError{t0.RunErrors, t1.RunErrors}, [][]trace.RunError{nil, {{
			Message: `API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired. Please obtain a new token or refresh your existing token."},"request_id":"req_011CVHxAbCdEfGhIjKlMnOpQ"} · Please run /login`,
			Code:    "authentication_failed", Seq: 20}}}},
		{"origins of turn 0", origins(t0), []string{"session.jsonl:1", "session.jsonl:2", "session.jsonl:3", "session.jsonl:4",
			"session.jsonl:5", "session.jsonl:6", "session.jsonl:7", "session.jsonl:8", "session.jsonl:9", "session.jsonl:10"}},
		{"types of turn 1", types(t1), []string{"user", "assistant", "user", "assistant", "user", "assistant", "user",
			"system", "user", "assistant", "summary"}},
		{"snapshot takes the next time", t0.Events[0].ReceivedMs, ms(t, "22:53:34.908")},
		{"summary takes the previous time", t1.Events[10].ReceivedMs, ms(t, "22:55:05.118")},
		{"test times", []int64{tr.TestStartMs, tr.TestEndMs}, []int64{ms(t, "22:53:34.908"), ms(t, "22:55:05.118")}},
		{"source", *tr.Source, trace.Source{Adapter: "claude-transcript", Version: "1", Mode: "import",
			Capabilities: []string{capability.ToolTrace, capability.Reasoning, capability.Replay}, Path: "session.jsonl", SessionID: sessionID}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.name, c.got, c.want)
		}
	}
	seq := int64(0)
	for _, tu := range tr.Turns {
		for _, e := range tu.Events {
			if seq++; e.Seq != seq || e.Run != 0 {
				t.Errorf("event %s: seq %d run %d, want seq %d run 0", e.Origin, e.Seq, e.Run, seq)
			}
			if !strings.HasPrefix(string(e.Raw), "{") || strings.HasSuffix(string(e.Raw), "\n") {
				t.Errorf("event %s: raw %.40q", e.Origin, e.Raw)
			}
		}
	}
}

// parse parses lines joined by "\n".
func parse(t *testing.T, lines ...string) *trace.Trace {
	t.Helper()
	tr, err := Parse(strings.NewReader(strings.Join(lines, "\n")), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

const (
	prompt = `{"type":"user","sessionId":"s1","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}`
	useA   = `{"type":"assistant","timestamp":"2025-01-01T00:00:01.000Z","message":{"id":"msg_01A","content":[{"type":"tool_use","id":"toolu_01A","name":"f","input":{"b": 1, "a": [1, 2]}}]}}`
)

// result is a user line with a tool result for toolu_01A.
func result(block string) string {
	return `{"type":"user","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A"` + block + `}]}}`
}

func TestPrompts(t *testing.T) {
	for _, c := range []struct {
		name  string
		line  string
		turns []string // the turns' user texts
	}{
		{"string", `{"type":"user","message":{"content":"again"}}`, []string{"hi", "again"}},
		{"text blocks", `{"type":"user","message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}`, []string{"hi", "a\nb"}},
		{"image only", `{"type":"user","message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}}]}}`, []string{"hi", ""}},
		{"meta", `{"type":"user","isMeta":true,"message":{"content":"<command-name>/clear</command-name>"}}`, []string{"hi"}},
		{"compact summary", `{"type":"user","isCompactSummary":true,"message":{"content":"This session is being continued"}}`, []string{"hi"}},
		{"sidechain", `{"type":"user","isSidechain":true,"message":{"content":"subagent task"}}`, []string{"hi"}},
		{"interrupt", `{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}`, []string{"hi"}},
		{"interrupt string", `{"type":"user","message":{"content":"[Request interrupted by user]"}}`, []string{"hi"}},
		{"tool result with text", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x","content":"r"},{"type":"text","text":"t"}]}}`, []string{"hi"}},
		{"empty list", `{"type":"user","message":{"content":[]}}`, []string{"hi"}},
		{"unknown blocks", `{"type":"user","message":{"content":[{"type":"document"},"x",5]}}`, []string{"hi"}},
		{"no message", `{"type":"user"}`, []string{"hi"}},
		{"assistant text", `{"type":"assistant","message":{"content":"not a prompt"}}`, []string{"hi"}},
		// What Claude Code writes for what the user did not ask the agent.
		{"a command nobody answered", `{"type":"user","message":{"role":"user","content":"<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args></command-args>"}}`, []string{"hi"}},
		{"a command's output", `{"type":"user","message":{"role":"user","content":"<local-command-stdout>Set model to Opus</local-command-stdout>"}}`, []string{"hi"}},
		{"a command's error output", `{"type":"user","message":{"role":"user","content":"<local-command-stderr>Error: unknown model</local-command-stderr>"}}`, []string{"hi"}},
		{"the caveat, not meta", `{"type":"user","message":{"role":"user","content":"<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>"}}`, []string{"hi"}},
		{"a task notification", `{"type":"user","message":{"role":"user","content":"<task-notification>\n<task-id>bash_1</task-id>\n<status>completed</status>\n</task-notification>"}}`, []string{"hi"}},
		{"a task notification by origin", `{"type":"user","origin":{"kind":"task-notification"},"message":{"role":"user","content":"tests passed"}}`, []string{"hi"}},
		{"shell mode", `{"type":"user","message":{"role":"user","content":"<bash-input>git status</bash-input>"}}`, []string{"hi"}},
		{"shell mode output", `{"type":"user","message":{"role":"user","content":"<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>"}}`, []string{"hi"}},
		{"another origin", `{"type":"user","origin":{"kind":"human"},"message":{"role":"user","content":"again"}}`, []string{"hi", "again"}},
		{"an origin of another shape", `{"type":"user","origin":"cli","message":{"role":"user","content":"again"}}`, []string{"hi", "again"}},
		{"a text that mentions a tag", `{"type":"user","message":{"role":"user","content":"why does <task-notification> appear?"}}`, []string{"hi", "why does <task-notification> appear?"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := parse(t, prompt, c.line)
			var got []string
			for _, tu := range tr.Turns {
				got = append(got, tu.UserText)
			}
			if !reflect.DeepEqual(got, c.turns) {
				t.Errorf("turns %q, want %q", got, c.turns)
			}
		})
	}
}

func TestResults(t *testing.T) {
	for _, c := range []struct {
		name  string
		block string
		want  *trace.Result
	}{
		{"string", `,"content":"ok"`, &trace.Result{Content: "ok"}},
		{"JSON string", `,"content":"{\"n\":1}"`, &trace.Result{Content: `{"n":1}`, JSON: true}},
		{"text list", `,"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, &trace.Result{Content: "a\nb"}},
		{"mixed list", `,"content":[{"type":"text","text":"a"}, {"type":"image","source":{"type":"base64"}}]`,
			&trace.Result{Content: `[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64"}}]`, JSON: true}},
		{"no content", ``, &trace.Result{}},
		{"error", `,"content":"boom","is_error":true`, &trace.Result{Content: "boom", Error: "boom"}},
		{"empty error", `,"content":[],"is_error":true`, &trace.Result{Error: "tool error"}},
		{"not an error", `,"content":"ok","is_error":false`, &trace.Result{Content: "ok"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := parse(t, prompt, useA, result(c.block))
			tc := tr.Turns[0].ToolCalls[0]
			if !reflect.DeepEqual(tc.Result, c.want) {
				t.Errorf("result %#v, want %#v", tc.Result, c.want)
			}
			if tc.ResultSeq != 3 || tc.TimestampMs != 1735689602000 {
				t.Errorf("result seq %d at %d", tc.ResultSeq, tc.TimestampMs)
			}
		})
	}
}

func TestMapping(t *testing.T) {
	user2 := `{"type":"user","timestamp":"2025-01-01T00:00:05.000Z","message":{"content":"next"}}`
	for _, c := range []struct {
		name  string
		lines []string
		check func(t *testing.T, tr *trace.Trace)
	}{
		{"args are compact JSON", []string{prompt, useA}, func(t *testing.T, tr *trace.Trace) {
			tc := tr.Turns[0].ToolCalls[0]
			if tc.Args != `{"b":1,"a":[1,2]}` || !tc.ArgsJSON || tc.Result != nil || tc.TimestampMs != 1735689601000 {
				t.Errorf("call %#v", tc)
			}
		}},
		{"several blocks on a line", []string{prompt,
			`{"type":"assistant","message":{"id":"msg_01A","content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"t"},{"type":"text","text":"b"},{"type":"tool_use","id":"toolu_01B","name":"g","input":{}}]}}`},
			func(t *testing.T, tr *trace.Trace) {
				if tu := tr.Turns[0]; !reflect.DeepEqual(tu.Texts, []string{"ab"}) || len(tu.ToolCalls) != 1 || tu.ToolCalls[0].Args != "{}" {
					t.Errorf("texts %q calls %#v", tu.Texts, tu.ToolCalls)
				}
			}},
		{"thinking blocks are the turn's reasoning, not its text", []string{prompt,
			`{"type":"assistant","message":{"id":"msg_01A","content":[{"type":"thinking","thinking":"the code is SPRING-7","signature":"s1"},{"type":"text","text":"Done."}]}}`,
			`{"type":"assistant","message":{"id":"msg_01B","content":[{"type":"thinking","thinking":"","signature":"s2"},{"type":"redacted_thinking","data":"x"},{"type":"thinking","thinking":"second thought"}]}}`},
			func(t *testing.T, tr *trace.Trace) {
				if tu := tr.Turns[0]; !reflect.DeepEqual(tu.Reasoning, []string{"the code is SPRING-7", "second thought"}) || tu.Text() != "Done." {
					t.Errorf("reasoning %q text %q", tu.Reasoning, tu.Text())
				}
			}},
		{"messages in the order they started", []string{prompt,
			`{"type":"assistant","message":{"id":"msg_01A","content":[{"type":"thinking","thinking":"t"}]}}`,
			`{"type":"assistant","message":{"id":"msg_01B","content":[{"type":"text","text":"second"}]}}`,
			`{"type":"assistant","message":{"id":"msg_01A","content":[{"type":"text","text":"fir"}]}}`,
			`{"type":"assistant","message":{"id":"msg_01A","content":[{"type":"text","text":"st"}]}}`,
			`{"type":"assistant","message":{"content":[{"type":"text","text":"no id"}]}}`,
			`{"type":"assistant","message":{"content":[{"type":"text","text":"no id either"}]}}`,
			`{"type":"assistant","message":{"id":"msg_01C","content":[{"type":"tool_use","id":"toolu_01C","name":"g"}]}}`},
			func(t *testing.T, tr *trace.Trace) {
				want := []string{"first", "second", "no id", "no id either"}
				if tu := tr.Turns[0]; !reflect.DeepEqual(tu.Texts, want) || tu.FirstTextSeq != 3 || tu.Text() != strings.Join(want, "\n") {
					t.Errorf("texts %q first seq %d", tu.Texts, tu.FirstTextSeq)
				}
			}},
		{"empty text is no first text", []string{prompt,
			`{"type":"assistant","timestamp":"2025-01-01T00:00:01.000Z","message":{"id":"msg_01A","content":[{"type":"text","text":""}]}}`,
			`{"type":"assistant","timestamp":"2025-01-01T00:00:02.000Z","message":{"id":"msg_01B","content":[{"type":"text","text":"x"}]}}`},
			func(t *testing.T, tr *trace.Trace) {
				if tu := tr.Turns[0]; !reflect.DeepEqual(tu.Texts, []string{"", "x"}) || tu.FirstTextSeq != 3 || tu.FirstTextMs != 1735689602000 {
					t.Errorf("texts %q first text %d at %d", tu.Texts, tu.FirstTextSeq, tu.FirstTextMs)
				}
			}},
		{"result in a later turn", []string{prompt, useA, user2, result(`,"content":"late"`)}, func(t *testing.T, tr *trace.Trace) {
			if tc := tr.Turns[0].ToolCalls[0]; tc.Result == nil || tc.Result.Content != "late" || tc.ResultSeq != 4 {
				t.Errorf("call %#v", tc)
			}
			if n := len(tr.Turns[1].ToolCalls); n != 0 {
				t.Errorf("turn 1 has %d calls", n)
			}
		}},
		{"unknown result id", []string{prompt, strings.Replace(result(`,"content":"x"`), "toolu_01A", "toolu_01Z", 1)}, func(t *testing.T, tr *trace.Trace) {
			if len(tr.Turns) != 1 || len(tr.Turns[0].ToolCalls) != 0 || len(tr.Turns[0].Events) != 2 {
				t.Errorf("turns %#v", tr.Turns)
			}
		}},
		{"a call written twice", []string{prompt, useA, useA}, func(t *testing.T, tr *trace.Trace) {
			if tcs := tr.Turns[0].ToolCalls; len(tcs) != 1 || tcs[0].StartSeq != 2 {
				t.Errorf("calls %#v", tcs)
			}
		}},
		{"sidechain calls are the subagent's, its texts not the turn's", []string{prompt,
			`{"type":"assistant","isSidechain":true,"message":{"id":"msg_01S","content":[{"type":"text","text":"sub"},{"type":"tool_use","id":"toolu_01A","name":"f","input":{}}]}}`,
			`{"type":"assistant","isSidechain":true,"agentId":"a1","message":{"id":"msg_01T","content":[{"type":"tool_use","id":"toolu_01B","name":"g","input":{}}]}}`,
			result(`,"content":"x"`)},
			func(t *testing.T, tr *trace.Trace) {
				tu := tr.Turns[0]
				if len(tu.ToolCalls) != 2 || tu.ToolCalls[0].Agent != "subagent" || tu.ToolCalls[1].Agent != "a1" || tu.ToolCalls[0].Result == nil ||
					len(tu.Texts) != 0 || len(tu.Events) != 4 || tu.Runs[0].FirstEventMs != 0 {
					t.Errorf("turn %#v", tu)
				}
			}},
		{"API error without text or code", []string{prompt,
			`{"type":"assistant","isApiErrorMessage":true,"error":{"type":"x"},"message":{"model":"<synthetic>","content":[]}}`},
			func(t *testing.T, tr *trace.Trace) {
				tu := tr.Turns[0]
				if !reflect.DeepEqual(tu.RunErrors, []trace.RunError{{Message: "API error", Seq: 2}}) || len(tu.Texts) != 0 {
					t.Errorf("run errors %#v texts %q", tu.RunErrors, tu.Texts)
				}
			}},
		{"lines before the prompt join the first turn", []string{
			`{"type":"summary","summary":"s","leafUuid":"u"}`,
			`{"type":"assistant","sessionId":"s0","timestamp":"2025-01-01T00:00:00.500Z","message":{"id":"msg_01A","content":[{"type":"text","text":"early"}]}}`,
			`{"type":"user","sessionId":"s1","timestamp":"2025-01-01T00:00:03.000Z","message":{"content":"hi"}}`,
			user2},
			func(t *testing.T, tr *trace.Trace) {
				t0 := tr.Turns[0]
				if len(tr.Turns) != 2 || t0.UserText != "hi" || !reflect.DeepEqual(t0.Texts, []string{"early"}) || t0.StartMs != 1735689603000 ||
					!reflect.DeepEqual(t0.Runs, []trace.Run{{RunID: "s1", StartMs: 1735689603000, EndMs: 1735689603000, FirstSeq: 1, Frames: 3, FirstEventMs: 1735689600500}}) {
					t.Errorf("turn 0 %#v", t0)
				}
				if e := t0.Events[0]; e.ReceivedMs != 1735689600500 || e.Type != "summary" {
					t.Errorf("event %#v", e)
				}
				if tr.Source.SessionID != "s0" || tr.Turns[1].Runs[0].RunID != "s0" || tr.TestStartMs != 1735689603000 {
					t.Errorf("session %q run %q", tr.Source.SessionID, tr.Turns[1].Runs[0].RunID)
				}
			}},
		{"no timestamps at all", []string{`{"type":"user","message":{"content":"hi"}}`}, func(t *testing.T, tr *trace.Trace) {
			if tu := tr.Turns[0]; tu.StartMs != 0 || tu.EndMs != 0 || tu.Events[0].ReceivedMs != 0 || tu.Runs[0].RunID != "" {
				t.Errorf("turn %#v", tu)
			}
		}},
		{"unknown types and fields", []string{prompt, `{"type":"progress","data":{"x":[1]},"isSidechain":"no"}`, `{}`},
			func(t *testing.T, tr *trace.Trace) {
				ev := tr.Turns[0].Events
				if len(ev) != 3 || ev[1].Type != "progress" || ev[2].Type != "" {
					t.Errorf("events %#v", ev)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, parse(t, c.lines...)) })
	}
}

func TestLines(t *testing.T) {
	for _, c := range []struct {
		name    string
		in      string
		origins []string
		raw     string // the first event's
	}{
		{"CRLF", prompt + "\r\n" + useA + "\r\n", []string{"s.jsonl:1", "s.jsonl:2"}, prompt},
		{"no final newline", prompt + "\n" + useA, []string{"s.jsonl:1", "s.jsonl:2"}, prompt},
		{"blank lines", "\n  \n" + prompt + "\n\r\n\t\n" + useA + "\n\n", []string{"s.jsonl:3", "s.jsonl:6"}, prompt},
		{"byte order mark", "\xef\xbb\xbf" + prompt + "\n" + useA, []string{"s.jsonl:1", "s.jsonl:2"}, prompt},
		{"spaces kept", "  " + prompt + " \n" + useA, []string{"s.jsonl:1", "s.jsonl:2"}, "  " + prompt + " "},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Parse(strings.NewReader(c.in), "s.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range tr.Turns[0].Events {
				got = append(got, e.Origin)
			}
			if !reflect.DeepEqual(got, c.origins) || string(tr.Turns[0].Events[0].Raw) != c.raw {
				t.Errorf("origins %q raw %q", got, tr.Turns[0].Events[0].Raw)
			}
		})
	}
}

func TestLongLine(t *testing.T) {
	defer func(n int) { maxLine = n }(maxLine)
	maxLine = len(prompt)
	if _, err := Parse(strings.NewReader(prompt+"\r\n"+prompt), "s.jsonl"); err != nil {
		t.Errorf("a line of the longest length: %v", err)
	}
	for _, in := range []string{prompt + " \n", prompt + "\n" + prompt + "  ", prompt + "\n" + strings.Repeat("x", 3*len(prompt))} {
		_, err := Parse(strings.NewReader(in), "s.jsonl")
		if want := "line longer than"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
	}{
		{"empty", "", "s.jsonl: empty transcript"},
		{"blank", "\n \r\n\n", "s.jsonl: empty transcript"},
		{"no prompt", `{"type":"summary"}` + "\n" + useA, "no user prompt in s.jsonl"},
		{"only meta", `{"type":"user","isMeta":true,"message":{"content":"x"}}`, "no user prompt in s.jsonl"},
		{"array", prompt + "\n[1,2]", `s.jsonl:2: not a JSON object: "[1,2]"`},
		{"null", "null", `s.jsonl:1: not a JSON object: "null"`},
		{"text", "hello world, this line is certainly not JSON at all", `s.jsonl:1: not a JSON object: "hello world, this line is certainly not …"`},
		{"truncated", prompt + "\n\n" + `{"type":"user"`, "s.jsonl:3: not a JSON object: unexpected end of JSON input"},
		{"trailing data", `{"type":"user"} {}`, "s.jsonl:1: not a JSON object: invalid character '{' after top-level value"},
		{"type", `{"type":["user"]}`, `s.jsonl:1: type ["user"] is not a string`},
		{"timestamp", prompt + "\n" + `{"type":"x","timestamp":"yesterday"}`, `s.jsonl:2: timestamp: parsing time "yesterday"`},
		{"timestamp without zone", `{"type":"x","timestamp":"2025-11-19T22:53:34.908"}`, `s.jsonl:1: timestamp: parsing time "2025-11-19T22:53:34.908"`},
		{"timestamp number", `{"type":"x","timestamp":1763592814908}`, "s.jsonl:1: timestamp 1763592814908 is not a string"},
		{"flag", `{"type":"user","isMeta":"yes"}`, "s.jsonl:1: user line: json: cannot unmarshal"},
		{"message", `{"type":"assistant","message":"hi"}`, "s.jsonl:1: assistant message: json: cannot unmarshal"},
		{"content", `{"type":"user","message":{"content":5}}`, "s.jsonl:1: user message: content is neither a string nor a list"},
		{"text block", `{"type":"user","message":{"content":[{"type":"text","text":5}]}}`, "s.jsonl:1: user message: text block: json: cannot unmarshal"},
		{"tool result block", prompt + "\n" + `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":"yes"}]}}`,
			"s.jsonl:2: user message: tool_result block: json: cannot unmarshal"},
		{"tool use block", `{"type":"assistant","message":{"content":[{"type":"tool_use","name":{}}]}}`, "s.jsonl:1: assistant message: tool_use block: json: cannot unmarshal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Parse(strings.NewReader(c.in), "s.jsonl")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || tr != nil {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestReadMissing(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "nope.jsonl"), "nope.jsonl")
	if err == nil || err.Error() != "read transcript nope.jsonl: no such file or directory" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v", err)
	}
}

// TestCommands: a slash command is a turn when the agent answered it
// (its text the command as typed), and no turn when only Claude Code did.
func TestCommands(t *testing.T) {
	const (
		review   = `{"type":"user","message":{"role":"user","content":"<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.go</command-args>"}}`
		expanded = `{"type":"user","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"Review src/a.go for bugs."}]}}`
		answer   = `{"type":"assistant","message":{"id":"msg_01R","model":"claude-sonnet-4-5","content":[{"type":"text","text":"No bugs."}]}}`
		clear    = `{"type":"user","message":{"role":"user","content":"<command-name>clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>"}}`
		exit     = `{"type":"user","message":{"role":"user","content":"<command-name>/exit</command-name>"}}`
		noReply  = `{"type":"assistant","message":{"id":"x","model":"<synthetic>","content":[{"type":"text","text":"No response requested."}]}}`
		apiError = `{"type":"assistant","isApiErrorMessage":true,"message":{"model":"<synthetic>","content":[{"type":"text","text":"API Error: 529 overloaded"}]}}`
		sideAns  = `{"type":"assistant","isSidechain":true,"message":{"id":"msg_01S","model":"claude-haiku-4-5","content":[{"type":"text","text":"sub"}]}}`
	)
	for _, c := range []struct {
		name  string
		lines []string
		turns []string
	}{
		{"answered", []string{prompt, review, expanded, answer}, []string{"hi", "/review src/a.go"}},
		{"answered first", []string{review, expanded, answer, prompt}, []string{"/review src/a.go", "hi"}},
		{"not answered", []string{prompt, clear, prompt}, []string{"hi", "hi"}},
		{"a name without its slash", []string{prompt, clear, answer}, []string{"hi", "/clear"}},
		{"answered by Claude Code alone", []string{prompt, exit, noReply}, []string{"hi"}},
		{"answered with an API error", []string{prompt, review, apiError}, []string{"hi", "/review src/a.go"}},
		{"answered by a subagent only", []string{prompt, review, sideAns}, []string{"hi"}},
		{"the answer after the next prompt", []string{review, prompt, answer}, []string{"hi"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Parse(strings.NewReader(strings.Join(c.lines, "\n")), "s.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tu := range tr.Turns {
				got = append(got, tu.UserText)
			}
			if !reflect.DeepEqual(got, c.turns) {
				t.Errorf("turns %q, want %q", got, c.turns)
			}
		})
	}
}

// TestLenient: read leniently, each line that cannot be read is a notice
// at its place, in the turn it fell in, and the rest is read.
func TestLenient(t *testing.T) {
	defer func(n int) { maxLine = n }(maxLine)
	maxLine = 200
	in := strings.Join([]string{
		`{"type":"summary","summary":"s"`,
		prompt,
		useA,
		`[1, 2]`,
		`{"type":"user","message":{"content":5}}`,
		strings.Repeat("x", 300),
		`{"type":"x","timestamp":"yesterday"}`,
		result(`,"content":"ok"`),
		`{"type":"user","timestamp":"2025-01-01T00:00:03.000Z","message":{"content":"next"}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":{}}]}}`,
	}, "\n")
	tr, err := parseWith(strings.NewReader(in), "s.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []trace.Notice{
		{Turn: 0, Message: "s.jsonl:1: not a JSON object: unexpected end of JSON input; the line is left out"},
		{Turn: 0, Message: `s.jsonl:4: not a JSON object: "[1, 2]"; the line is left out`},
		{Turn: 0, Message: "s.jsonl:5: user message: content is neither a string nor a list; the line is left out"},
		{Turn: 0, Message: "s.jsonl:6: line longer than 200 bytes; the line is left out"},
		{Turn: 0, Message: `s.jsonl:7: timestamp: parsing time "yesterday" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "yesterday" as "2006"; the line is left out`},
		{Turn: 1, Message: "s.jsonl:10: assistant message: tool_use block: json: cannot unmarshal object into Go struct field toolUseBlock.name of type string; the line is left out"},
	}
	if !reflect.DeepEqual(tr.Notices, want) {
		t.Errorf("notices:\n%#v\nwant\n%#v", tr.Notices, want)
	}
	if len(tr.Turns) != 2 || len(tr.Turns[0].Events) != 3 || tr.Turns[0].ToolCalls[0].Result == nil || tr.Turns[0].UserSeq != 1 {
		t.Errorf("turns %#v", tr.Turns)
	}
	// A trace with nothing but bad lines has no prompt.
	if _, err := parseWith(strings.NewReader("[1]\n{"), "s.jsonl", Options{}); err == nil || err.Error() != "no user prompt in s.jsonl" {
		t.Errorf("only bad lines: %v", err)
	}
}
