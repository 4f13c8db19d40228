package claude

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
)

// spendJSON is a turn's usage as reports write it.
func spendJSON(s *cost.Spend) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestUsageOfRecordedTranscripts: each API message of a transcript counts
// once however many lines Claude Code split it into; input counts cached
// reads and cache writes; a subagent's messages count in the turn that
// started it. The totals are computed by hand from the files.
func TestUsageOfRecordedTranscripts(t *testing.T) {
	// The project session and its subagent's messages are all alike:
	// input 6 + cache read 15872 + cache write 1204 = 17082, output 41.
	const counts = `{"input_tokens":%d,"output_tokens":%d,"total_tokens":%d,"cached_input_tokens":%d,"cache_write_input_tokens":%d}`
	tokens := func(n int) string { return fmt.Sprintf(counts, 17082*n, 41*n, 17123*n, 15872*n, 1204*n) }
	model := func(name string, n int) string {
		return `{"provider":"anthropic","model":"` + name + `","tokens":` + tokens(n) + `}`
	}
	// alike is the usage of n such messages of the models.
	alike := func(n int, models ...string) string {
		return `{"tokens":` + tokens(n) + `,"models":[` + strings.Join(models, ",") + `],"reported":` + fmt.Sprint(n) + `}`
	}
	const sonnet, haiku = "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"
	for _, c := range []struct {
		name, path string
		turns      []string
	}{
		{
			// NanoClaw's scheduled run: six messages in eleven lines, the
			// last five split into text and tool_use. Per message (input +
			// cache read + cache write = input; output):
			//   5+14915+471=15391, 375;  9+17802+1381=19192, 319;
			//   8+25372+1382=26762, 108; 6+24645+606=25257, 331;
			//   4+18721+304=19029, 332;  3+21809+2190=24002, 354.
			// Input 129633 (cache reads 123264, writes 6334), output 1819.
			name: "a NanoClaw run", path: "../../../examples/nanoclaw/recordings/scheduler-digest-timeout-recovery/fail/data/sessions/family/.claude/projects/-workspace-group/b1360730-41bc-46bd-a020-cee637dc73fe.jsonl",
			turns: []string{`{"tokens":{"input_tokens":129633,"output_tokens":1819,"total_tokens":131452,"cached_input_tokens":123264,"cache_write_input_tokens":6334},` +
				`"models":[{"provider":"anthropic","model":"claude-sonnet-4-6","tokens":{"input_tokens":129633,"output_tokens":1819,"total_tokens":131452,"cached_input_tokens":123264,"cache_write_input_tokens":6334}}],"reported":6}`},
		},
		{
			// Turn 0: msg_01Fq8… (lines 6-7, one message), msg_01Nc5…, and
			// the Explore subagent's three haiku messages; turn 1 (/review):
			// two; turn 2: four (the task notification is no prompt).
			name: "a session with its subagent", path: "testdata/projects/-home-dev-shop/0b7e6c1a-5d2f-4c8e-9a31-7f4e2b9d6c05.jsonl",
			turns: []string{alike(5, model(sonnet, 2), model(haiku, 3)), alike(2, model(sonnet, 2)), alike(4, model(sonnet, 4))},
		},
		{
			// Turn 0: msg_01XyB… (three lines), msg_01Hc5…, msg_01Pn4…;
			// turn 1: two messages and a sidechain one; the "<synthetic>"
			// line after the summary is no model call. Each message: input
			// 4+12488+5310=17802, output 6.
			name: "a session with sidechain lines", path: "testdata/session.jsonl",
			turns: []string{
				`{"tokens":{"input_tokens":53406,"output_tokens":18,"total_tokens":53424,"cached_input_tokens":37464,"cache_write_input_tokens":15930},"models":[{"provider":"anthropic","model":"claude-sonnet-4-5-20250929","tokens":{"input_tokens":53406,"output_tokens":18,"total_tokens":53424,"cached_input_tokens":37464,"cache_write_input_tokens":15930}}],"reported":3}`,
				`{"tokens":{"input_tokens":53406,"output_tokens":18,"total_tokens":53424,"cached_input_tokens":37464,"cache_write_input_tokens":15930},"models":[{"provider":"anthropic","model":"claude-sonnet-4-5-20250929","tokens":{"input_tokens":53406,"output_tokens":18,"total_tokens":53424,"cached_input_tokens":37464,"cache_write_input_tokens":15930}}],"reported":3}`,
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Read(filepath.FromSlash(c.path), filepath.Base(c.path))
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Turns) != len(c.turns) {
				t.Fatalf("%d turns; want %d", len(tr.Turns), len(c.turns))
			}
			for i, want := range c.turns {
				if got := spendJSON(tr.Turns[i].Usage); got != want {
					t.Errorf("turn %d: usage\n%s\nwant\n%s", i, got, want)
				}
			}
			if !tr.UsageReported() {
				t.Error("the trace does not say it reported usage")
			}
		})
	}
}

// TestUsage: what counts and what does not, and the Agent SDK's result
// lines: their cost is used as reported for the turn whose messages they
// cover, split by model when they say how, and never used for messages of
// several turns.
func TestUsage(t *testing.T) {
	ask := func(s int, text string) string {
		return fmt.Sprintf(`{"type":"user","timestamp":"2025-01-01T00:00:%02d.000Z","message":{"role":"user","content":%q}}`, s, text)
	}
	say := func(s int, id, model, usage string) string {
		u := ""
		if usage != "" {
			u = `,"usage":` + usage
		}
		return fmt.Sprintf(`{"type":"assistant","timestamp":"2025-01-01T00:00:%02d.000Z","message":{"id":%q,"model":%q,"content":[{"type":"text","text":"ok"}]%s}}`, s, id, model, u)
	}
	result := func(s int, rest string) string {
		return fmt.Sprintf(`{"type":"result","subtype":"success","timestamp":"2025-01-01T00:00:%02d.000Z",%s}`, s, rest)
	}
	const u10 = `{"input_tokens":10,"output_tokens":2,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}`
	const t10 = `{"input_tokens":10,"output_tokens":2,"total_tokens":12,"cached_input_tokens":0,"cache_write_input_tokens":0}`
	for _, c := range []struct {
		name    string
		lines   []string
		turns   []string // each turn's usage as JSON
		notices int
	}{
		{"a split message counts once, with its final output", []string{ask(0, "hi"),
			say(1, "m1", "claude-a", `{"input_tokens":3,"output_tokens":1,"cache_read_input_tokens":100,"cache_creation_input_tokens":20}`),
			say(2, "m1", "claude-a", `{"input_tokens":3,"output_tokens":50,"cache_read_input_tokens":100,"cache_creation_input_tokens":20}`),
			say(3, "m1", "claude-a", `{"input_tokens":3,"output_tokens":50,"cache_read_input_tokens":100,"cache_creation_input_tokens":20}`)},
			[]string{`{"tokens":{"input_tokens":123,"output_tokens":50,"total_tokens":173,"cached_input_tokens":100,"cache_write_input_tokens":20},"models":[{"provider":"anthropic","model":"claude-a","tokens":{"input_tokens":123,"output_tokens":50,"total_tokens":173,"cached_input_tokens":100,"cache_write_input_tokens":20}}],"reported":1}`}, 0},
		{"no usage is unknown", []string{ask(0, "hi"), say(1, "m1", "claude-a", "")}, []string{`null`}, 0},
		{"a message without usage makes it partial", []string{ask(0, "hi"), say(1, "m1", "claude-a", u10), say(2, "m2", "claude-a", "")},
			[]string{`{"tokens":` + t10 + `,"partial":true,"models":[{"provider":"anthropic","model":"claude-a","tokens":` + t10 + `}],"reported":1,"unreported":1}`}, 0},
		{"what Claude Code wrote itself is no model call", []string{ask(0, "hi"), say(1, "m1", "<synthetic>", `{"input_tokens":0,"output_tokens":0}`)}, []string{`null`}, 0},
		{"counts not reported stay unknown", []string{ask(0, "hi"), say(1, "m1", "claude-a", `{"output_tokens":5}`)},
			[]string{`{"tokens":{"output_tokens":5},"models":[{"provider":"anthropic","model":"claude-a","tokens":{"output_tokens":5}}],"reported":1}`}, 0},
		{"a result's cost goes to the turn's one model", []string{ask(0, "hi"), say(1, "m1", "claude-a", u10), say(2, "m2", "claude-a", u10),
			result(3, `"total_cost_usd":0.05,"usage":{"input_tokens":20,"output_tokens":4}`)},
			[]string{`{"tokens":{"input_tokens":20,"output_tokens":4,"total_tokens":24,"cached_input_tokens":0,"cache_write_input_tokens":0},"cost_usd":0.05,"models":[{"provider":"anthropic","model":"claude-a","tokens":{"input_tokens":20,"output_tokens":4,"total_tokens":24,"cached_input_tokens":0,"cache_write_input_tokens":0},"cost_usd":0.05,"cost_from":"reported"}],"reported":2}`}, 0},
		{"split by model by modelUsage", []string{ask(0, "hi"), say(1, "m1", "claude-a", u10), say(2, "m2", "claude-b", u10),
			result(3, `"total_cost_usd":0.03,"modelUsage":{"claude-a":{"costUSD":0.01},"claude-b":{"costUSD":0.02}}`)},
			[]string{`{"tokens":{"input_tokens":20,"output_tokens":4,"total_tokens":24,"cached_input_tokens":0,"cache_write_input_tokens":0},"cost_usd":0.03,"models":[` +
				`{"provider":"anthropic","model":"claude-a","tokens":` + t10 + `,"cost_usd":0.01,"cost_from":"reported"},` +
				`{"provider":"anthropic","model":"claude-b","tokens":` + t10 + `,"cost_usd":0.02,"cost_from":"reported"}],"reported":2}`}, 0},
		{"two models, no split: priced instead", []string{ask(0, "hi"), say(1, "m1", "claude-a", u10), say(2, "m2", "claude-b", u10),
			result(3, `"total_cost_usd":0.03`)},
			[]string{`{"tokens":{"input_tokens":20,"output_tokens":4,"total_tokens":24,"cached_input_tokens":0,"cache_write_input_tokens":0},"models":[` +
				`{"provider":"anthropic","model":"claude-a","tokens":` + t10 + `},{"provider":"anthropic","model":"claude-b","tokens":` + t10 + `}],"reported":2}`}, 1},
		{"a result over two turns is not used", []string{ask(0, "one"), say(1, "m1", "claude-a", u10), ask(2, "two"), say(3, "m2", "claude-a", u10),
			result(4, `"total_cost_usd":0.03`)},
			[]string{`{"tokens":` + t10 + `,"models":[{"provider":"anthropic","model":"claude-a","tokens":` + t10 + `}],"reported":1}`,
				`{"tokens":` + t10 + `,"models":[{"provider":"anthropic","model":"claude-a","tokens":` + t10 + `}],"reported":1}`}, 1},
		{"a result per turn", []string{ask(0, "one"), say(1, "m1", "claude-a", u10), result(2, `"total_cost_usd":0.01`),
			ask(3, "two"), say(4, "m2", "claude-a", u10), result(5, `"total_cost_usd":0.02`)},
			[]string{`{"tokens":` + t10 + `,"cost_usd":0.01,"models":[{"provider":"anthropic","model":"claude-a","tokens":` + t10 + `,"cost_usd":0.01,"cost_from":"reported"}],"reported":1}`,
				`{"tokens":` + t10 + `,"cost_usd":0.02,"models":[{"provider":"anthropic","model":"claude-a","tokens":` + t10 + `,"cost_usd":0.02,"cost_from":"reported"}],"reported":1}`}, 0},
		{"a message after the result: the cost does not cover it", []string{ask(0, "hi"), say(1, "m1", "claude-a", u10), result(2, `"total_cost_usd":0.01`), say(3, "m2", "claude-a", u10)},
			[]string{`{"tokens":{"input_tokens":20,"output_tokens":4,"total_tokens":24,"cached_input_tokens":0,"cache_write_input_tokens":0},"models":[{"provider":"anthropic","model":"claude-a","tokens":{"input_tokens":20,"output_tokens":4,"total_tokens":24,"cached_input_tokens":0,"cache_write_input_tokens":0}}],"reported":2}`}, 0},
		{"only the result reports usage", []string{ask(0, "hi"), say(1, "m1", "claude-a", ""),
			result(2, `"total_cost_usd":0.04,"usage":{"input_tokens":7,"output_tokens":3,"cache_read_input_tokens":5},"modelUsage":{"claude-a":{"inputTokens":2,"outputTokens":3,"cacheReadInputTokens":5,"costUSD":0.04}}`)},
			[]string{`{"tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10,"cached_input_tokens":5},"cost_usd":0.04,"models":[{"provider":"anthropic","model":"claude-a","tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10,"cached_input_tokens":5},"cost_usd":0.04,"cost_from":"reported"}],"reported":1}`}, 0},
		{"only the result, without modelUsage", []string{ask(0, "hi"), result(1, `"total_cost_usd":0.04,"usage":{"input_tokens":7,"output_tokens":3}`)},
			[]string{`{"tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10},"cost_usd":0.04,"models":[{"provider":"anthropic","tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10},"cost_usd":0.04,"cost_from":"reported"}],"reported":1}`}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := parse(t, c.lines...)
			if len(tr.Turns) != len(c.turns) {
				t.Fatalf("%d turns; want %d", len(tr.Turns), len(c.turns))
			}
			for i, want := range c.turns {
				if got := spendJSON(tr.Turns[i].Usage); got != want {
					t.Errorf("turn %d: usage\n%s\nwant\n%s", i, got, want)
				}
			}
			if len(tr.Notices) != c.notices {
				t.Errorf("notices %v; want %d", tr.Notices, c.notices)
			}
		})
	}
}
