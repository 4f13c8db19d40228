package agui_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// TestDecodeUsage: RUN_FINISHED's and RUN_ERROR's usage is read as
// reported — a count the entry leaves out stays unknown, not zero — and
// what cannot be read is a warning that leaves the count unknown or the
// entry out; an event without usage has none.
func TestDecodeUsage(t *testing.T) {
	for _, c := range []struct {
		name, frame string
		has         bool
		want        string // the usages as JSON
		warnings    int
	}{
		{"absent", `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`, false, `null`, 0},
		{"empty: used nothing", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[]}`, true, `[]`, 0},
		{"every field", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"provider":"openai","model":"gpt-4o-mini","inputTokens":120,"outputTokens":30,"totalTokens":150,"reasoningTokens":10,"cachedInputTokens":100,"cacheWriteInputTokens":5}]}`, true,
			`[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":120,"output_tokens":30,"total_tokens":150,"reasoning_tokens":10,"cached_input_tokens":100,"cache_write_input_tokens":5}}]`, 0},
		{"absent is unknown, zero is zero", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"model":"m","outputTokens":0}]}`, true,
			`[{"model":"m","tokens":{"output_tokens":0}}]`, 0},
		{"two models", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"provider":"a","inputTokens":1,"outputTokens":2},{"provider":"b","model":"y","totalTokens":7}]}`, true,
			`[{"provider":"a","tokens":{"input_tokens":1,"output_tokens":2,"total_tokens":3}},{"provider":"b","model":"y","tokens":{"total_tokens":7}}]`, 0},
		{"on RUN_ERROR", `{"type":"RUN_ERROR","message":"boom","usage":[{"model":"m","inputTokens":9}]}`, true,
			`[{"model":"m","tokens":{"input_tokens":9}}]`, 0},
		{"bad counts are unknown", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"model":"m","inputTokens":-1,"outputTokens":1.5,"totalTokens":"3","reasoningTokens":null,"cachedInputTokens":4}]}`, true,
			`[{"model":"m","tokens":{"cached_input_tokens":4}}]`, 4},
		{"an entry that is no object is left out", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[3,null,{"model":"m","inputTokens":1}]}`, true,
			`[{"model":"m","tokens":{"input_tokens":1}}]`, 2},
		{"a name that is no string", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"provider":1,"model":"m","inputTokens":1}]}`, true,
			`[{"model":"m","tokens":{"input_tokens":1}}]`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev, ps := agui.Decode([]byte(c.frame))
			got, _ := json.Marshal(ev.Usage)
			if ev.HasUsage() != c.has || string(got) != c.want {
				t.Errorf("usage %s (has %v); want %s (has %v)", got, ev.HasUsage(), c.want, c.has)
			}
			if len(ps) != c.warnings {
				t.Errorf("problems %v; want %d warnings", ps, c.warnings)
			}
			for _, p := range ps {
				if p.Severity != agui.Warning || p.Rule != agui.RuleSchema {
					t.Errorf("problem %v; want a schema warning", p)
				}
			}
		})
	}
}

// usageRun is a run that answers with text and reports usage (none when
// usage is nil).
func usageRun(in agui.RunAgentInput, body []aguitest.E, usage any) []any {
	evs := aguitest.Run(in, body...)
	if usage != nil {
		evs[len(evs)-1].(aguitest.E)["usage"] = usage
	}
	return evs
}

// TestSessionUsage: each run keeps the usage it reported; a turn's usage
// is the sum over its runs, client-tool follow-ups included, per provider
// and model, a run that reported none counted as unreported; a turn none
// of whose runs reported usage has none.
func TestSessionUsage(t *testing.T) {
	mini := func(in, out int) aguitest.E {
		return aguitest.E{"provider": "openai", "model": "gpt-4o-mini", "inputTokens": in, "outputTokens": out}
	}
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		in := r.Input
		msgs := in.Messages
		last := msgs[len(msgs)-1]
		user := ""
		for _, m := range msgs {
			if m.Role == agui.RoleUser {
				user, _ = m.TextContent()
			}
		}
		switch {
		case user == "both" && last.Role == agui.RoleTool:
			return aguitest.Response{Events: usageRun(in, aguitest.Text("m2", "done"),
				[]aguitest.E{mini(50, 10), {"provider": "anthropic", "model": "claude-haiku-4-5", "inputTokens": 5, "outputTokens": 5}})}
		case user == "both":
			return aguitest.Response{Events: usageRun(in, aguitest.Call(in.RunID+"-c", "confirm", `{}`, ""), []aguitest.E{mini(100, 20)})}
		case user == "one" && last.Role == agui.RoleTool:
			return aguitest.Response{Events: usageRun(in, aguitest.Text("m4", "done"), nil)}
		case user == "one":
			return aguitest.Response{Events: usageRun(in, aguitest.Call(in.RunID+"-c", "confirm", `{}`, ""), []aguitest.E{mini(7, 3)})}
		}
		return aguitest.Response{Events: usageRun(in, aguitest.Text("m6", "hi"), nil)}
	})
	s := sessionFor(srv, agui.SessionOptions{MaxFollowups: 2, Tools: []agui.Tool{{Name: "confirm"}},
		Answers: map[string]func(string) (string, bool){"confirm": func(string) (string, bool) { return "ok", true }}})
	rec := trace.NewRecorder()
	for i, text := range []string{"both", "one", "none"} {
		rec.StartTurn(i, target.TurnUser, text, time.UnixMilli(0))
		if _, err := s.Turn(context.Background(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec); err != nil {
			t.Fatal(err)
		}
		rec.EndTurn(time.UnixMilli(0), s.State())
	}
	tr := rec.Trace()
	for _, c := range []struct {
		turn int
		runs []string // each run's usage as JSON
		want string
	}{
		{0, []string{
			`{"tokens":{"input_tokens":100,"output_tokens":20,"total_tokens":120},"models":[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":100,"output_tokens":20,"total_tokens":120}}],"reported":1}`,
			`{"tokens":{"input_tokens":55,"output_tokens":15,"total_tokens":70},"models":[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":50,"output_tokens":10,"total_tokens":60}},{"provider":"anthropic","model":"claude-haiku-4-5","tokens":{"input_tokens":5,"output_tokens":5,"total_tokens":10}}],"reported":1}`},
			`{"tokens":{"input_tokens":155,"output_tokens":35,"total_tokens":190},"models":[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":150,"output_tokens":30,"total_tokens":180}},{"provider":"anthropic","model":"claude-haiku-4-5","tokens":{"input_tokens":5,"output_tokens":5,"total_tokens":10}}],"reported":2}`},
		{1, []string{
			`{"tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10},"models":[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10}}],"reported":1}`,
			`null`},
			`{"tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10},"partial":true,"models":[{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10}}],"reported":1,"unreported":1}`},
		{2, []string{`null`}, `null`},
	} {
		turn := tr.Turns[c.turn]
		if len(turn.Runs) != len(c.runs) {
			t.Fatalf("turn %d: %d runs; want %d", c.turn, len(turn.Runs), len(c.runs))
		}
		for i, want := range c.runs {
			if got, _ := json.Marshal(turn.Runs[i].Usage); string(got) != want {
				t.Errorf("turn %d run %d: usage\n%s\nwant\n%s", c.turn, i, got, want)
			}
		}
		if got, _ := json.Marshal(turn.Usage); string(got) != c.want {
			t.Errorf("turn %d: usage\n%s\nwant\n%s", c.turn, got, c.want)
		}
	}
	if !tr.UsageReported() {
		t.Error("the trace does not say it reported usage")
	}
}
