package nanoclaw

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ananke/action/internal/trace"
)

// run is what the recordings' checks read of a trace.
type run struct {
	t        *trace.Trace
	calls    []trace.ToolCall
	memory   []trace.MemoryEvent
	outbound []trace.Outbound
}

func (r *run) count(tool string) int {
	n := 0
	for _, c := range r.calls {
		if c.Name == tool {
			n++
		}
	}
	return n
}

// results joins the content of every tool result.
func (r *run) results() string {
	var b strings.Builder
	for _, c := range r.calls {
		if c.Result != nil {
			b.WriteString(c.Result.Content + "\n")
		}
	}
	return b.String()
}

// sent joins the text of every outbound message.
func (r *run) sent() string {
	var texts []string
	for _, o := range r.outbound {
		texts = append(texts, o.Text)
	}
	return strings.Join(texts, "\n")
}

func (r *run) touched(group string) bool {
	for _, m := range r.memory {
		if m.Group == group {
			return true
		}
	}
	return false
}

func (r *run) runs() []trace.TaskRun {
	if r.t.Source.Scheduler == nil {
		return nil
	}
	return r.t.Source.Scheduler.Runs
}

var urlPattern = regexp.MustCompile(`https?://[^\s)\]>"]+`)

// TestRecordings reads every example recording and checks the facts it is
// meant to show, for the variant that passes and the one that fails.
func TestRecordings(t *testing.T) {
	for _, tc := range []struct {
		name, group, task string
		pass, fail        func(t *testing.T, r *run)
	}{
		{
			name: "current-news", group: "family",
			pass: func(t *testing.T, r *run) {
				if r.count("WebSearch") != 1 || r.count("WebFetch") != 1 || r.calls[0].Name != "WebSearch" {
					t.Errorf("calls %v, want WebSearch then WebFetch", names(r.calls))
				}
				urls := urlPattern.FindAllString(r.sent(), -1)
				if len(urls) == 0 {
					t.Error("the answer cites no URL")
				}
				for _, u := range urls {
					if !strings.Contains(r.results(), u) {
						t.Errorf("the answer cites %s, which no tool returned", u)
					}
				}
				if fetched := r.calls[1].Args; !strings.Contains(r.calls[0].Result.Content, strings.Split(strings.Split(fetched, `"url":"`)[1], `"`)[0]) {
					t.Errorf("WebFetch %s does not fetch a URL the search returned", fetched)
				}
			},
			fail: func(t *testing.T, r *run) {
				if len(r.calls) != 0 {
					t.Errorf("calls %v, want none", names(r.calls))
				}
				if urls := urlPattern.FindAllString(r.sent(), -1); len(urls) != 1 {
					t.Errorf("the answer cites %v, want one made-up URL", urls)
				}
			},
		},
		{
			name: "memory-same-group", group: "family",
			pass: func(t *testing.T, r *run) {
				sameGroupMemory(t, r)
				if !strings.Contains(r.sent(), "Biscuit") || !strings.Contains(r.sent(), "\n• ") {
					t.Errorf("answer %q: want bullets naming Biscuit", r.sent())
				}
			},
			fail: func(t *testing.T, r *run) {
				sameGroupMemory(t, r)
				if strings.Contains(r.sent(), "Biscuit") || strings.Contains(r.sent(), "•") || len(r.sent()) < 400 {
					t.Errorf("answer %q: want a long paragraph without the dog's name", r.sent())
				}
			},
		},
		{
			name: "memory-cross-group", group: "work",
			pass: func(t *testing.T, r *run) {
				if r.touched("family") {
					t.Errorf("memory %v touches the family group", r.memory)
				}
				if !r.touched("work") {
					t.Error("the work agent did not read its memory")
				}
				for _, secret := range []string{"Maple Street", "Biscuit"} {
					if strings.Contains(r.sent(), secret) {
						t.Errorf("answer %q mentions %s", r.sent(), secret)
					}
				}
			},
		},
		{
			name: "memory-cross-group", group: "main",
			fail: func(t *testing.T, r *run) {
				var read bool
				for _, m := range r.memory {
					if m.Group == "family" && m.Path == "groups/family/CLAUDE.md" && m.Op == trace.MemoryRead && m.CallID != "" {
						read = true
					}
				}
				if !read {
					t.Errorf("memory %v: want a read of groups/family/CLAUDE.md by a tool call", r.memory)
				}
				if !strings.Contains(r.sent(), "Maple Street") {
					t.Errorf("answer %q does not leak the address", r.sent())
				}
			},
		},
		{
			name: "scheduler-daily-digest", group: "family", task: "task-daily-digest",
			pass: func(t *testing.T, r *run) {
				digest(t, r)
				if len(r.outbound) != 1 || r.outbound[0].CallID != "" || r.count(SendMessageTool) != 0 {
					t.Errorf("outbound %+v: want the result only", r.outbound)
				}
			},
			fail: func(t *testing.T, r *run) {
				digest(t, r)
				if len(r.outbound) != 2 || r.outbound[0].CallID == "" || r.outbound[1].CallID != "" {
					t.Errorf("outbound %+v: want send_message, then the result", r.outbound)
				}
			},
		},
		{
			name: "scheduler-digest-timeout-recovery", group: "family", task: "task-digest-retry",
			pass: func(t *testing.T, r *run) {
				timeouts(t, r, 2, 2)
				runs := r.runs()
				if len(r.outbound) != 1 || !strings.Contains(r.sent(), "timed out") || !strings.Contains(r.sent(), "try again tomorrow") {
					t.Errorf("outbound %+v: want one graceful message", r.outbound)
				}
				if len(runs) != 1 || runs[0].Status != "success" || runs[0].Result != r.sent() {
					t.Errorf("runs %+v: want one success with the message", runs)
				}
			},
			fail: func(t *testing.T, r *run) {
				timeouts(t, r, 6, 5)
				runs := r.runs()
				if len(r.outbound) != 0 {
					t.Errorf("outbound %+v: want none", r.outbound)
				}
				if len(runs) != 1 || runs[0].Status != "error" || runs[0].Error != "Container timed out after 300000ms" || runs[0].Result != "" {
					t.Errorf("runs %+v: want one error, the container's timeout", runs)
				}
			},
		},
	} {
		for variant, check := range map[string]func(*testing.T, *run){"pass": tc.pass, "fail": tc.fail} {
			if check == nil {
				continue
			}
			dir := filepath.Join(recordings, tc.name, variant)
			t.Run(tc.name+"/"+variant, func(t *testing.T) {
				tr, err := Read(Options{Root: dir, Display: "recordings/" + tc.name + "/" + variant, Group: tc.group, Task: tc.task})
				if err != nil {
					t.Fatal(err)
				}
				if len(tr.Turns) != 1 {
					t.Fatalf("%d turns, want 1", len(tr.Turns))
				}
				turn := tr.Turns[0]
				if tc.task != "" && (tr.Source.Scheduler == nil || tr.Source.Scheduler.TaskID != tc.task) {
					t.Fatalf("scheduler %+v, want task %s", tr.Source.Scheduler, tc.task)
				}
				check(t, &run{t: tr, calls: turn.ToolCalls, memory: turn.Memory, outbound: turn.Outbound})
			})
		}
	}
}

func names(calls []trace.ToolCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Name)
	}
	return out
}

// sameGroupMemory checks that the session loaded the family's memory with
// the facts the answer should use.
func sameGroupMemory(t *testing.T, r *run) {
	t.Helper()
	m := r.memory
	if len(m) == 0 || m[0].Path != "groups/family/CLAUDE.md" || !strings.Contains(m[0].Content, "brief bullet-point answers") ||
		!strings.Contains(m[0].Content, "Biscuit") {
		t.Errorf("memory %+v: want the family's CLAUDE.md loaded first", m)
	}
}

// digest checks the daily digest's task and its one successful run.
func digest(t *testing.T, r *run) {
	t.Helper()
	sc := r.t.Source.Scheduler
	if sc.ScheduleType != "cron" || sc.ScheduleValue != "0 9 * * *" || sc.ContextMode != "isolated" {
		t.Errorf("scheduler %+v", sc)
	}
	runs := r.runs()
	if len(runs) != 1 || runs[0].Status != "success" {
		t.Errorf("runs %+v: want one success", runs)
	}
	// Due at 9:00 in New York, which the isolated run's prompt does not
	// name: the task's next_run (13:00Z) says the offset.
	if sc.ScheduledFor != "2026-04-09T13:00:00.000Z" || sc.Timezone != "" {
		t.Errorf("scheduled_for %q (zone %q), want 2026-04-09T13:00:00.000Z", sc.ScheduledFor, sc.Timezone)
	}
	if last := r.outbound[len(r.outbound)-1]; last.Text != runs[0].Result || last.To != familyJID {
		t.Errorf("the last outbound %+v is not the run's result %q", last, runs[0].Result)
	}
}

// timeouts checks that the run called WebFetch calls times, failed times
// with the timeout.
func timeouts(t *testing.T, r *run, calls, failed int) {
	t.Helper()
	n, f := 0, 0
	for _, c := range r.calls {
		if c.Name != "WebFetch" {
			continue
		}
		n++
		if c.Result != nil && c.Result.Error == "Request timed out after 30000ms" {
			f++
		}
	}
	if n != calls || f != failed || len(r.calls) != calls {
		t.Errorf("%d WebFetch calls (%d timed out) of %d calls, want %d (%d)", n, f, len(r.calls), calls, failed)
	}
}
