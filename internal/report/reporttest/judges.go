package reporttest

import (
	"fmt"
	"strings"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// JudgeModel is the model of the judges of JudgesOutcome, and
// JudgePromptHash the hash of their prompt (Ananke's own).
const JudgeModel = "gpt-4o-mini"

// JudgePromptHash is judge.PromptHash of Ananke's own judge prompt.
var JudgePromptHash = judge.PromptHash("")

// Demoted is why the critical test-level judge of JudgesOutcome was
// reported as a warning.
const Demoted = "no calibration of gpt-4o-mini with this prompt"

// Awkward is text that would end the page's script element, open a
// comment, or close an attribute: JudgesOutcome puts it in a criterion and
// a reasoning.
const Awkward = `</script><script>alert("x")</script> <!-- it's & "quoted"`

// JudgesOutcome is a run whose tests were judged (docs/judges.md):
//
//   - tests/tone, run once: a turn judge whose two criteria were met, and
//     a critical test judge reported as a warning (Demoted) that found one
//     criterion false and one inconclusive — its criterion and reasoning
//     hold Awkward, its reasoning the secret;
//   - tests/refund-tone, run twice: the judge of its turn found a criterion
//     false in the first run (a failed assertion of that attempt) and true
//     in the second, the shown attempt, so the test passes at 50% and is
//     flaky.
func JudgesOutcome() *engine.Outcome {
	base := Start.UnixMilli()
	tone := once(&spec.Test{Path: "tests/tone.ananke.yaml", ID: "tests/tone", Name: vars.Name{Value: "replies kindly"}}, &engine.Attempt{
		Status: status.Pass, Start: ms(0), End: ms(700), Secrets: []string{Secret},
		Trace: judgedTrace(base, "hello, can you help?", "Hello! Yes, of course."),
		Results: []assertion.Result{
			judgeResult("turn[0].judge", assertion.LevelTurn, "turn[0]", pos("tests/tone.ananke.yaml", 8, 15), assertion.Critical, "",
				verdict{"greets the user", judge.True, "It opens with “Hello!”."},
				verdict{"answers in the user's language", judge.True, "The user wrote English; so did the agent."}),
			judgeResult("test.judge", assertion.LevelTest, "test", pos("tests/tone.ananke.yaml", 12, 11), assertion.Warning, Demoted,
				verdict{"apologises with " + Awkward, judge.False, "It never apologises: " + Awkward + " key " + Secret},
				verdict{"stays on topic", judge.Inconclusive, "The reply is too short to tell."}),
		},
	})
	attempt := func(run int, met bool) *engine.Attempt {
		start := base + int64(run)*1000
		v := verdict{"offers a refund politely", judge.True, "It offers the refund and thanks the user."}
		st := status.Pass
		if !met {
			v.verdict, v.reasoning, st = judge.False, "It refuses the refund curtly: “No.”", status.Fail
		}
		return &engine.Attempt{Run: run, Status: st, Start: time.UnixMilli(start).UTC(), End: time.UnixMilli(start + 500).UTC(),
			Trace: judgedTrace(start, "I want a refund", map[bool]string{true: "Of course, here is your refund. Thank you!", false: "No."}[met]),
			Results: []assertion.Result{judgeResult("turn[0].judge", assertion.LevelTurn, "turn[0]", pos("tests/refund-tone.ananke.yaml", 7, 15),
				assertion.Critical, "", v)}}
	}
	refund := judged(&spec.Test{Path: "tests/refund-tone.ananke.yaml", ID: "tests/refund-tone", Name: vars.Name{Value: "refunds politely"}},
		stability.Policy{Runs: 2, MinPassRate: 50}, status.Pass, "", attempt(0, false), attempt(1, true))
	return &engine.Outcome{Tests: []*engine.TestResult{tone, refund}, Start: Start, End: ms(2100)}
}

// JudgesReport builds the report of JudgesOutcome.
func JudgesReport() *report.Report {
	return report.Build(JudgesOutcome(), report.Meta{Version: "v1.2.3", Config: Config(), Parallel: 1})
}

type verdict struct{ criterion, verdict, reasoning string }

// judgedTrace is a one-turn trace: the user's message and the reply.
func judgedTrace(start int64, user, reply string) *trace.Trace {
	return &trace.Trace{TestStartMs: start, TestEndMs: start + 500, Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: user, StartMs: start, EndMs: start + 500,
		Texts: []string{reply}, Runs: []trace.Run{{RunID: "run-j", Request: []byte(`{}`), StartMs: start, EndMs: start + 500, FirstSeq: 1, Frames: 1}},
		Events: []trace.Event{{Seq: 1, ReceivedMs: start + 20, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED","runId":"run-j"}`)}}}}}
}

// judgeResult is a judge's result as judge.Evaluate and the engine make it:
// its message, evidence and verdicts, demoted to a warning with a reason.
func judgeResult(id string, level assertion.Level, scope string, at diag.Pos, sev assertion.Severity, demoted string, vs ...verdict) assertion.Result {
	r := assertion.Result{ID: id, Level: level, Kind: assertion.KindJudge, Scope: scope, Source: at, Severity: sev, Status: status.Pass,
		Judge: &assertion.JudgeOutcome{Model: JudgeModel, PromptHash: JudgePromptHash, Demoted: demoted}}
	var quoted, missed []string
	counts := map[string]int{}
	for _, v := range vs {
		quoted = append(quoted, fmt.Sprintf("%q", v.criterion))
		counts[v.verdict]++
		r.Judge.Criteria = append(r.Judge.Criteria, assertion.CriterionVerdict{Criterion: v.criterion, Verdict: v.verdict, Reasoning: v.reasoning})
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: fmt.Sprintf("%q: %s", v.criterion, v.verdict), Text: v.reasoning})
		if v.verdict != judge.True {
			missed = append(missed, fmt.Sprintf("%q (%s: %s)", v.criterion, v.verdict, v.reasoning))
		}
	}
	r.Expected = "the judge finds every criterion true: " + strings.Join(quoted, ", ")
	r.Observed = fmt.Sprintf("%d true, %d false, %d inconclusive", counts[judge.True], counts[judge.False], counts[judge.Inconclusive])
	r.Message = fmt.Sprintf("the judge found every criterion of %s met (%d)", scope, len(vs))
	if len(missed) > 0 {
		r.Status = status.Fail
		r.Message = fmt.Sprintf("the judge found %d of %d criteria not met in %s: %s", len(missed), len(vs), scope, strings.Join(missed, "; "))
	}
	if demoted != "" {
		r.Message += " (reported as a warning: " + demoted + ")"
	}
	return r
}
