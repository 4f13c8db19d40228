package html_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
	"github.com/ananke/action/reporters/html"
)

const capSecret = "sk-cap-0123456789abcdef"

// bigReport is one test whose user message, reply, tool arguments and
// result pass TextCap, whose first event passes EventCap with a secret
// across the cut, and whose 3000 further events pass EventsCap; an
// assertion points at events 2500 and 2900–2950.
func bigReport() *report.Report {
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	base := start.UnixMilli()
	big := strings.Repeat("long text ", html.TextCap/10+100)
	blob := `{"blob":"` + strings.Repeat("b", html.TextCap+500) + `"}`
	first := `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + strings.Repeat("x", html.EventCap-70) + capSecret + strings.Repeat("y", 10000) + `"}`
	tt := trace.Turn{Index: 0, Kind: "user", UserText: big, StartMs: base, EndMs: base + 5000, Texts: []string{big},
		ToolCalls: []trace.ToolCall{{ID: "c1", Name: "upload", Args: blob, ArgsJSON: true, Result: &trace.Result{Content: blob, JSON: true},
			StartedMs: base + 10, EndedMs: base + 20, TimestampMs: base + 30, StartSeq: 2, EndSeq: 3, ResultSeq: 4}},
		Events: []trace.Event{{Seq: 1, ReceivedMs: base + 1, Type: "TEXT_MESSAGE_CONTENT", Raw: []byte(first)}}}
	for seq := int64(2); seq <= 3001; seq++ {
		raw := fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"%s"}`, strings.Repeat("d", 440))
		tt.Events = append(tt.Events, trace.Event{Seq: seq, ReceivedMs: base + seq, Type: "TEXT_MESSAGE_CONTENT", Raw: []byte(raw)})
	}
	refs := []int64{2500}
	for s := int64(2900); s <= 2950; s++ {
		refs = append(refs, s)
	}
	a := &engine.Attempt{Status: status.Fail, Start: start, End: start.Add(5 * time.Second), Secrets: []string{capSecret},
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 5000, Turns: []trace.Turn{tt}},
		Results: []assertion.Result{{ID: "turn[0].text.must_not_match[0]", Level: assertion.LevelTurn, Kind: assertion.KindMustNotMatch, Scope: "turn[0]",
			Severity: assertion.Critical, Status: status.Fail, Message: "matches", Evidence: []assertion.Evidence{{Note: "match", EventRefs: refs}}}}}
	a.Results[0].Finish()
	p := stability.Policy{Runs: 1, MinPassRate: 100}
	res := &engine.TestResult{Test: &spec.Test{Path: "tests/big.ananke.yaml", ID: "tests/big", Name: vars.Name{Value: "big"}}, Status: status.Fail, Policy: p,
		Verdict: p.Judge([][]status.Status{{status.Fail}}), Attempts: []*engine.Attempt{a}, Start: a.Start, End: a.End}
	return report.Build(&engine.Outcome{Tests: []*engine.TestResult{res}, Start: start, End: a.End},
		report.Meta{Version: "v1.2.3", Config: &spec.Config{Path: "ananke.config.yaml"}})
}

// TestCaps: what passes a cap is cut and says its whole size; events past
// the test's events cap are left out in runs, except those the assertion
// points at; a secret across an event's cut is masked; the page stays
// within the caps.
func TestCaps(t *testing.T) {
	page := render(t, bigReport())
	if strings.Contains(page, capSecret) || strings.Contains(page, capSecret[:8]) {
		t.Error("the page holds the secret, or its start where the event was cut")
	}
	p := decode(t, page)
	tu := p.Tests[0].Turns[0]
	for name, c := range map[string]struct{ kept, whole int }{
		"user": {len(tu.User), tu.UserBytes}, "text": {len(tu.Text), tu.TextBytes},
		"args": {len(tu.Calls[0].Args), tu.Calls[0].ArgsBytes},
	} {
		if c.kept != html.TextCap || c.whole <= html.TextCap {
			t.Errorf("%s: kept %d of %d bytes; want %d of more", name, c.kept, c.whole, html.TextCap)
		}
	}
	ev := decodeEvent(t, tu.Events[0])
	if len(ev.Raw) != html.EventCap || ev.Bytes <= html.EventCap {
		t.Errorf("the first event kept %d of %d bytes; want %d of more", len(ev.Raw), ev.Bytes, html.EventCap)
	}
	kept := map[int64]bool{}
	for _, e := range tu.Events {
		kept[decodeEvent(t, e).Seq] = true
	}
	left := 0
	for _, g := range tu.LeftOut {
		left += g.Count
		for s := g.From; s <= g.To; s++ {
			if kept[s] {
				t.Errorf("event %d is both kept and left out", s)
			}
		}
	}
	if tu.Count != 3001 || len(tu.Events)+left != tu.Count || left == 0 {
		t.Errorf("%d events kept, %d left out, of %d; want 3001, some left out", len(tu.Events), left, tu.Count)
	}
	for _, s := range []int64{2, 3, 4, 2500, 2900, 2950} {
		if !kept[s] {
			t.Errorf("event %d, which the page points at, was left out", s)
		}
	}
	if kept[2925] {
		t.Error("event 2925, inside a run of references, was kept past the cap")
	}
	if max := html.EventsCap + 5*html.TextCap + 200<<10; len(page) > max {
		t.Errorf("the page is %d bytes; want at most %d", len(page), max)
	}
}

// TestSpooledEvents: events a run spooled to disk are read through the
// trace and masked as the trace file's are.
func TestSpooledEvents(t *testing.T) {
	const secret = "sk-spooled-secret"
	var body strings.Builder
	body.WriteString("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	body.WriteString("data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}\n\n")
	for range 50 {
		body.WriteString("data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"key " + secret + " \"}\n\n")
	}
	body.WriteString("data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	at := time.UnixMilli(5000)
	rec := trace.NewSpillingRecorder(t.TempDir(), 500)
	rec.StartTurn(0, "user", "hi", at)
	rec.StartRun("r1", at)
	w := agui.NewRecording(rec)
	c := &agui.Client{Now: func() time.Time { return at }}
	res, err := c.ReadStream(context.Background(), strings.NewReader(body.String()), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, w.Observe)
	if err != nil {
		t.Fatal(err)
	}
	w.EndRun(res.Frames, nil, res.Streamed, at)
	rec.EndTurn(at, nil)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	tr := rec.Trace()
	// As report.Build does: the assembled text masked, the events masked
	// as they are read.
	red := report.NewRedactor([]string{secret}, nil)
	tr.Turns[0].Texts = red.Strings(tr.Turns[0].Texts)
	tr.Mask = red.JSON
	r := &report.Report{Tests: []report.Test{{ID: "t", Status: status.Pass, Trace: tr, Attempts: []report.Attempt{{Trace: tr}}, Shown: 1}}}
	page := render(t, r)
	if strings.Contains(page, secret) {
		t.Fatal("the spooled events are in the page unmasked")
	}
	if n := len(decode(t, page).Tests[0].Turns[0].Events); n != 54 {
		t.Errorf("%d events in the page; want 54", n)
	}
}
