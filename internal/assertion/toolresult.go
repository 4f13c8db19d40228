package assertion

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// The result: checks (version 1.2) put one condition on every tool call
// result in scope: an mcp:call turn's one call, or every call of the test.
// The listings of mcp:list_tools turns are tools_list's, not result's.

// resultCalls are the calls result: checks.
func resultCalls(s trace.Scope) []*trace.ToolCall {
	var out []*trace.ToolCall
	for i := range s.Turns {
		for k := range s.Turns[i].ToolCalls {
			if c := &s.Turns[i].ToolCalls[k]; c.Name != trace.ListToolsCall {
				out = append(out, c)
			}
		}
	}
	return out
}

// callCheck checks one call: why it fails ("" when it passes) and what
// shows it (the call is added).
type callCheck func(c *trace.ToolCall) (why string, ev Evidence)

// eachCall runs check on every call, failing r with the calls that fail
// it, or passing with "<whose result> <passed>". With no call it fails:
// "no tool result in turn[0]".
func eachCall(r *Result, s trace.Scope, calls []*trace.ToolCall, noun, passed string, check callCheck) {
	if len(calls) == 0 {
		r.Observed = "no " + noun
		r.set(status.Fail, "no %s in %s", noun, s.Name)
		return
	}
	var failed []string
	for _, c := range calls {
		why, ev := check(c)
		ev.Call = c
		if ev.Note == "" {
			ev.Note = "passes"
			if why != "" {
				ev.Note = why
			}
		}
		r.Evidence = append(r.Evidence, ev)
		if why != "" {
			failed = append(failed, callRef(c)+": "+why)
		}
	}
	r.Observed = fmt.Sprintf("%s, %d failing", plural.Count(len(calls), noun), len(failed))
	switch {
	case len(failed) > 0:
		if len(failed) > maxReasons {
			failed = append(failed[:maxReasons], fmt.Sprintf("%d more", len(failed)-maxReasons))
		}
		r.set(status.Fail, "%s", strings.Join(failed, "; "))
	case len(calls) == 1:
		r.set(status.Pass, "the %s of %s %s", noun, callRef(calls[0]), passed)
	default:
		r.set(status.Pass, "every %s in %s (%d) %s", noun, s.Name, len(calls), passed)
	}
}

const toolResult = "tool result"

func resultMatch(r *Result, re *vars.Regex, want bool, s trace.Scope) {
	verb := "matching"
	if !want {
		verb = "not matching"
	}
	r.Expected = fmt.Sprintf("every tool result %s `%s`", verb, re)
	passed := fmt.Sprintf("matches `%s`", re)
	if !want {
		passed = fmt.Sprintf("does not match `%s`", re)
	}
	eachCall(r, s, resultCalls(s), toolResult, passed, func(c *trace.ToolCall) (string, Evidence) {
		if c.Result == nil {
			return "no result arrived", Evidence{}
		}
		text := ResultText(c.Result)
		loc := find(re, text)
		switch {
		case want && loc == nil:
			return fmt.Sprintf("result does not match `%s`: %s", re, quote(text)), Evidence{Note: "result", Text: shorten(text, 400)}
		case want:
			return "", Evidence{Note: "match", Text: around(text, loc)}
		case loc != nil:
			return fmt.Sprintf("result matches forbidden `%s`: %s", re, quote(around(text, loc))), Evidence{Note: "forbidden match", Text: around(text, loc)}
		}
		return "", Evidence{}
	})
}

func resultJSONPath(r *Result, c *JSONPathCheck, want json.RawMessage, s trace.Scope) {
	vc := newValueCheck(want, c.Equals, c.Match, c.Type)
	absent := c.Exists != nil && !*c.Exists
	r.Expected = expectPath(c.Path, vc, absent, "each tool result's JSON")
	passed := "has a value at " + c.Path
	switch d := vc.describe(); {
	case absent:
		passed = "has nothing at " + c.Path
	case d != "":
		passed = fmt.Sprintf("has %s, which %s", c.Path, d)
	}
	eachCall(r, s, resultCalls(s), toolResult, passed, func(call *trace.ToolCall) (string, Evidence) {
		if call.Result == nil {
			return "no result arrived", Evidence{}
		}
		doc := replyDoc{text: call.Result.Content, where: "the result"}
		var v any
		if err := json.Unmarshal([]byte(doc.text), &v); err != nil {
			return fmt.Sprintf("the result is not JSON (%s), so %s cannot be checked: %s", oneLine(err.Error()), c.Path, quote(doc.text)),
				Evidence{Note: "the result (not JSON)", Text: shorten(doc.text, 400)}
		}
		var one Result
		selectPath(&one, c, vc, absent, v, doc, func(note, text string) Evidence { return Evidence{Note: note, Text: text} })
		var ev Evidence
		if len(one.Evidence) > 0 {
			ev = one.Evidence[0]
		}
		if one.Status == status.Fail {
			return one.Message, ev
		}
		return "", ev
	})
}

func resultIsError(r *Result, want bool, s trace.Scope) {
	r.Expected = "every tool result not an error"
	passed := "is not an error"
	if want {
		r.Expected, passed = "every tool result an error", "is an error"
	}
	eachCall(r, s, resultCalls(s), toolResult, passed, func(c *trace.ToolCall) (string, Evidence) {
		switch {
		case c.Result == nil:
			return "no result arrived", Evidence{}
		case c.Result.Error != "" && !want:
			return "the result is an error: " + quote(c.Result.Error), Evidence{Note: "error result", Text: shorten(c.Result.Error, 400)}
		case c.Result.Error == "" && want:
			return "the result is not an error: " + quote(ResultText(c.Result)), Evidence{Note: "result", Text: shorten(ResultText(c.Result), 400)}
		}
		return "", Evidence{}
	})
}

func resultMaxDuration(r *Result, limit int64, s trace.Scope) {
	r.Expected = fmt.Sprintf("every tool call completing within %d ms", limit)
	eachCall(r, s, resultCalls(s), toolResult, fmt.Sprintf("arrived within %d ms", limit), func(c *trace.ToolCall) (string, Evidence) {
		end := c.TimestampMs
		if end == 0 {
			end = c.EndedMs
		}
		if end == 0 {
			return "the call never completed, so it cannot be timed", Evidence{}
		}
		took := end - c.StartedMs
		if took > limit {
			return fmt.Sprintf("took %d ms, over max_duration_ms %d", took, limit), Evidence{}
		}
		return "", Evidence{Note: fmt.Sprintf("took %d ms", took)}
	})
}
