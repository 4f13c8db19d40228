package html_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// synthetic builds, through report.Build, a report of n tests shaped like
// a real suite's: two turns each, every turn a run of two or three tool
// calls (start, two argument deltas, end, result) and an answer streamed
// in twenty deltas, a tools.require check per call and a text check per
// turn. Every 40th test fails its text check, every 100th errors and
// another every 100th is skipped.
func synthetic(n int) *report.Report {
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	out := &engine.Outcome{Start: start, End: start.Add(time.Duration(n) * 100 * time.Millisecond)}
	for i := range n {
		out.Tests = append(out.Tests, syntheticTest(i, start.Add(time.Duration(i)*100*time.Millisecond)))
	}
	return report.Build(out, report.Meta{Version: "v1.2.3", Parallel: 4,
		Config: &spec.Config{Path: "ananke.config.yaml", Target: spec.Target{Type: "agui", Endpoint: vars.Literal("http://localhost:8000/agui")}}})
}

func syntheticTest(i int, start time.Time) *engine.TestResult {
	path := fmt.Sprintf("tests/shop/case-%03d.ananke.yaml", i)
	t := &spec.Test{Path: path, ID: fmt.Sprintf("tests/shop/case-%03d", i), Name: vars.Name{Value: fmt.Sprintf("order flow %d: find, price and reserve", i)},
		Tags: []vars.Name{{Value: []string{"search", "checkout", "refunds"}[i%3]}}}
	p := stability.Policy{Runs: 1, MinPassRate: 100}
	if i%100 == 29 {
		t.Skip = "waiting for the v2 agent"
		return &engine.TestResult{Test: t, Status: status.Skipped, Reason: t.Skip, Start: start, End: start, Policy: p}
	}
	a := &engine.Attempt{Status: status.Pass, Start: start}
	if i%100 == 13 {
		a.Status, a.Reason, a.ReasonPos = status.Error, `hooks[0]: hook "./seed.sh" exited with status 1; stderr: no database`, diag.Pos{File: path, Line: 4, Col: 5}
	} else {
		a.Trace, a.Results = syntheticTrace(i, path, start.UnixMilli())
		for _, r := range a.Results {
			if r.Status == status.Fail {
				a.Status = status.Fail
			}
		}
	}
	a.End = start.Add(1800 * time.Millisecond)
	for k := range a.Results {
		a.Results[k].Finish()
	}
	return &engine.TestResult{Test: t, Status: a.Status, Reason: a.Reason, ReasonPos: a.ReasonPos, Policy: p,
		Verdict: p.Judge([][]status.Status{{a.Status}}), Attempts: []*engine.Attempt{a}, Start: a.Start, End: a.End}
}

// syntheticTrace is a test's two turns and their checks.
func syntheticTrace(i int, path string, base int64) (*trace.Trace, []assertion.Result) {
	tr := &trace.Trace{TestStartMs: base, TestEndMs: base + 1800}
	var results []assertion.Result
	seq := int64(0)
	for k := range 2 {
		at := base + int64(k)*900
		runID := fmt.Sprintf("run-%d-%d", i, k)
		tt := trace.Turn{Index: k, Kind: "user", UserText: fmt.Sprintf("Find me trail shoes in size %d and reserve the cheapest pair.", 38+i%8),
			StartMs: at, EndMs: at + 850, ToolCalls: []trace.ToolCall{}}
		ev := func(ms int64, raw string) int64 {
			seq++
			typ := raw[len(`{"type":"`) : strings.Index(raw[len(`{"type":"`):], `"`)+len(`{"type":"`)]
			tt.Events = append(tt.Events, trace.Event{Seq: seq, ReceivedMs: at + ms, Type: typ, Raw: []byte(raw)})
			return seq
		}
		ev(20, `{"type":"RUN_STARTED","threadId":"thread-`+fmt.Sprint(i)+`","runId":"`+runID+`"}`)
		tools := []string{"search_products", "get_price", "reserve_item"}[:2+(i+k)%2]
		for c, name := range tools {
			id := fmt.Sprintf("%s-call-%d", runID, c)
			ms := int64(60 + c*120)
			call := trace.ToolCall{ID: id, Name: name, Turn: k, ArgsJSON: true,
				Args:      fmt.Sprintf(`{"sku":"TR-%04d","size":%d,"store":"north"}`, i*7+c, 38+i%8),
				StartedMs: at + ms, EndedMs: at + ms + 15, TimestampMs: at + ms + 90}
			call.StartSeq = ev(ms, `{"type":"TOOL_CALL_START","toolCallId":"`+id+`","toolCallName":"`+name+`","parentMessageId":"m-`+runID+`"}`)
			ev(ms+5, `{"type":"TOOL_CALL_ARGS","toolCallId":"`+id+`","delta":"{\"sku\":\"TR-`+fmt.Sprintf("%04d", i*7+c)+`\","}`)
			ev(ms+10, `{"type":"TOOL_CALL_ARGS","toolCallId":"`+id+`","delta":"\"size\":`+fmt.Sprint(38+i%8)+`,\"store\":\"north\"}"}`)
			call.EndSeq = ev(ms+15, `{"type":"TOOL_CALL_END","toolCallId":"`+id+`"}`)
			content := fmt.Sprintf(`{"sku":"TR-%04d","name":"Trail runner %d","price":%d.90,"stock":%d}`, i*7+c, c, 80+c*10, 3+c)
			call.Result = &trace.Result{Content: content, JSON: true}
			call.ResultSeq = ev(ms+90, `{"type":"TOOL_CALL_RESULT","messageId":"r-`+id+`","role":"tool","toolCallId":"`+id+`","content":`+quote(content)+`}`)
			tt.ToolCalls = append(tt.ToolCalls, call)
			results = append(results, assertion.Result{ID: fmt.Sprintf("turn[%d].tools.require[%d]", k, c), Level: assertion.LevelTurn, Kind: assertion.KindRequire,
				Scope: fmt.Sprintf("turn[%d]", k), Source: diag.Pos{File: path, Line: 8 + c, Col: 13}, Severity: assertion.Critical, Status: status.Pass,
				Message: fmt.Sprintf("`%s` called 1 time, expected at least 1 time", name), Expected: fmt.Sprintf("`%s` at least 1 time", name),
				Observed: fmt.Sprintf("1 call satisfying the entry (1 call to `%s`)", name), Evidence: []assertion.Evidence{{Note: "satisfies the entry", Call: &tt.ToolCalls[len(tt.ToolCalls)-1]}}})
		}
		ev(420, `{"type":"TEXT_MESSAGE_START","messageId":"m-`+runID+`","role":"assistant"}`)
		words := strings.Fields("The cheapest pair in your size is the Trail runner 0 at 80.90 and I reserved it at the north store for two days as you asked")
		var text strings.Builder
		var deltas []int64
		for w, word := range words[:20] {
			text.WriteString(word + " ")
			s := ev(430+int64(w)*20, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m-`+runID+`","delta":"`+word+` "}`)
			deltas = append(deltas, s)
			if w == 0 {
				tt.FirstTextMs, tt.FirstTextSeq = at+430, s
			}
		}
		ev(840, `{"type":"TEXT_MESSAGE_END","messageId":"m-`+runID+`"}`)
		ev(845, `{"type":"RUN_FINISHED","threadId":"thread-`+fmt.Sprint(i)+`","runId":"`+runID+`"}`)
		tt.Texts = []string{text.String()}
		tt.Runs = []trace.Run{{RunID: runID, Request: []byte(`{"threadId":"thread-` + fmt.Sprint(i) + `","runId":"` + runID + `","messages":[]}`),
			StartMs: at, EndMs: at + 850, FirstSeq: tt.Events[0].Seq, Frames: len(tt.Events), FirstEventMs: at + 20}}
		check := assertion.Result{ID: fmt.Sprintf("turn[%d].text.must_not_match[0]", k), Level: assertion.LevelTurn, Kind: assertion.KindMustNotMatch,
			Scope: fmt.Sprintf("turn[%d]", k), Source: diag.Pos{File: path, Line: 14, Col: 25}, Severity: assertion.Critical, Status: status.Pass,
			Message: fmt.Sprintf("assistant text in turn[%d] does not match `out of stock`", k), Expected: "assistant text not matching `out of stock`", Observed: "no match"}
		if i%40 == 7 && k == 1 {
			check.Status, check.Message, check.Observed = status.Fail, "assistant text in turn[1] matches forbidden `reserved`: \"…and I reserved it at the north store…\"", "match \"reserved\""
			check.Expected = "assistant text not matching `reserved`"
			check.Evidence = []assertion.Evidence{{Note: "forbidden match", Text: "and I reserved it at the north store", EventRefs: deltas[13:16]}}
		}
		results = append(results, check)
		tr.Turns = append(tr.Turns, tt)
	}
	return tr, results
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
