package nanoclaw

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/trace"
)

// testdata/root-v2 is a NanoClaw 2 root: the family agent group's session
// on Telegram, in which the agent schedules a daily pill reminder (the
// task's series id is its first occurrence's id), the reminder runs on
// April 21, the family chats, and the reminder runs again on April 22.
const (
	testRootV2  = "testdata/root-v2"
	agentFamily = "ag-1776070912345-f4m1ly"
	sessFamily  = "sess-1776071203517-k2p9xq"
	transcript2 = "b7e3c1d2-5f4a-4e8b-9c61-2a7d0f3e8b14"
	pillTask    = "task-1776726895604-q7m2kd" // the series, and its first occurrence
	pillNext    = "task-1776859209442-m9c3ta" // the occurrence still to come
	familyChat  = "telegram:-1001234567890"
	sessionRel  = "data/v2-sessions/" + agentFamily + "/" + sessFamily + "/"
	claudeRel   = "data/v2-sessions/" + agentFamily + "/.claude-shared/projects/-workspace-agent/"
)

func readV2(t *testing.T, root string, o Options) *trace.Trace {
	t.Helper()
	o.Root, o.Display = root, "nanoclaw"
	tr, err := Read(o)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// sent lists the trace's outbound messages: "turn seq call to text".
func sent(tr *trace.Trace) []string {
	var out []string
	for _, turn := range tr.Turns {
		for _, o := range turn.Outbound {
			out = append(out, fmt.Sprintf("%d %d %s %s %s", turn.Index, o.Seq, o.CallID, o.To, o.Text))
		}
	}
	return out
}

// TestReadV2Golden reads the NanoClaw 2 root; the golden files show the
// whole result (go test -update rewrites them).
func TestReadV2Golden(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"v2-session", Options{Group: "family"}},
		{"v2-task", Options{Group: "family", Task: pillTask}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := readV2(t, testRootV2, tc.o)
			golden.Assert(t, filepath.Join("testdata", "golden", tc.name+".json"), render(t, tr))
		})
	}
}

func TestReadV2Facts(t *testing.T) {
	t.Run("session", func(t *testing.T) {
		tr := readV2(t, testRootV2, Options{Group: "family"})
		s := tr.Source
		if s.Adapter != Adapter || s.Version != "2" || s.AgentID != agentFamily || s.GroupID != "family" ||
			s.SessionID != sessFamily || s.Scheduler != nil || len(tr.Turns) != 4 {
			t.Fatalf("source = %+v, %d turns", s, len(tr.Turns))
		}
		if got := tr.Turns[0].Events[0].Origin; got != "nanoclaw/"+claudeRel+transcript2+".jsonl:1" {
			t.Errorf("origin = %q", got)
		}
		// Every message the session sent, each at the line that wrote it:
		// <message> blocks of results, and send_message calls.
		want := []string{
			"0 8  " + familyChat + " Done — I'll remind you every morning at 8:00.",
			"1 12 toolu_01V2Send21Pll " + familyChat + " Good morning! Time for Biscuit's pill — one tablet, with food.",
			"2 16  " + familyChat + " I sent the reminder at 8:00, but I can't tell whether he took it — can someone confirm?",
			"3 20 toolu_01V2Send22Pll " + familyChat + " Good morning! Time for Biscuit's pill — one tablet, with food.",
		}
		if got := sent(tr); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("outbound:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("memory", func(t *testing.T) {
		tr := readV2(t, testRootV2, Options{Group: "family"})
		var got []string
		for _, m := range tr.Turns[0].Memory {
			got = append(got, fmt.Sprintf("%d %s %s %s", m.Seq, m.Op, m.Group, m.Path))
		}
		want := []string{
			"1 read family groups/family/CLAUDE.local.md",
			"1 read family " + claudeRel + "memory/MEMORY.md",
			"4 write family " + claudeRel + "memory/biscuit.md",
			"6 write family " + claudeRel + "memory/MEMORY.md",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("memory:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if c := tr.Turns[0].Memory[0].Content; !strings.Contains(c, "Biscuit (golden retriever") {
			t.Errorf("CLAUDE.local.md read = %q", c)
		}
	})
	t.Run("task", func(t *testing.T) {
		// The reminder's last run is the session's last turn; the chat
		// before it, with its messages, is not the task's.
		tr := readV2(t, testRootV2, Options{Group: "family", Task: pillTask})
		sc := tr.Source.Scheduler
		if tr.Source.TaskID != pillTask || sc == nil || sc.TaskID != pillTask || sc.ScheduleType != "cron" || sc.ScheduleValue != "0 8 * * *" ||
			sc.ScheduledFor != "2026-04-22T12:00:00.000Z" || sc.Timezone != "America/New_York" || sc.ContextMode != "group" ||
			sc.Prompt != "Remind the family to give Biscuit his pill. Check your notes for the dose." {
			t.Fatalf("scheduler = %+v", sc)
		}
		if len(sc.Runs) != 2 || sc.Runs[0].RunAt != "2026-04-21T12:00:08.000Z" || sc.Runs[1].RunAt != "2026-04-22T12:00:08.000Z" ||
			sc.Runs[1].Status != "success" || sc.Runs[1].DurationMs != 6000 {
			t.Errorf("runs = %+v", sc.Runs)
		}
		if len(tr.Turns) != 1 || !strings.Contains(tr.Turns[0].UserText, `<task from="family" time="Apr 21, 2026`) || tr.Turns[0].Events[0].Seq != 17 {
			t.Fatalf("%d turns, the first %q", len(tr.Turns), tr.Turns[0].UserText)
		}
		if got := sent(tr); len(got) != 1 || got[0] != "0 20 toolu_01V2Send22Pll "+familyChat+" Good morning! Time for Biscuit's pill — one tablet, with food." {
			t.Errorf("outbound = %q, want the run's reminder only", got)
		}
		if m := tr.Turns[0].Memory; len(m) != 3 || m[0].Path != "groups/family/CLAUDE.local.md" || m[2].Path != claudeRel+"memory/biscuit.md" || m[2].CallID == "" {
			t.Errorf("memory = %+v", m)
		}
	})
	t.Run("the task's session found among several", func(t *testing.T) {
		root := copyRoot(t, testRootV2)
		appendSQL(t, root, "data/v2.sql", `INSERT INTO sessions (id, agent_group_id, messaging_group_id, thread_id, agent_provider, status, container_status, last_active, created_at)
       VALUES ('sess-1776500000000-other1', '`+agentFamily+`', NULL, NULL, NULL, 'active', 'stopped', NULL, '2026-04-01T00:00:00.000Z');`)
		mkSession(t, root, "sess-1776500000000-other1", "", "")
		tr := readV2(t, root, Options{Group: "family", Task: pillTask})
		if tr.Source.SessionID != sessFamily {
			t.Errorf("session = %s, want %s", tr.Source.SessionID, sessFamily)
		}
		tr = readV2(t, root, Options{Group: "family", Session: sessFamily})
		if len(tr.Turns) != 4 {
			t.Errorf("%d turns, want the session's 4", len(tr.Turns))
		}
	})
	t.Run("messages placed by time, and what is not a message", func(t *testing.T) {
		root := copyRoot(t, testRootV2)
		appendSQL(t, root, sessionRel+"outbound.sql", `
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, kind, platform_id, channel_type, content)
     VALUES ('msg-1', 21, NULL, '2026-04-19 10:00:00', 'chat', '`+familyChat+`', 'telegram', '{"text":"From an earlier transcript."}');
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, kind, platform_id, channel_type, content)
     VALUES ('msg-2', 23, NULL, '2026-04-21 16:31:50', 'chat', '`+familyChat+`', 'telegram', '{"text":"Error: overloaded"}');
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, kind, platform_id, channel_type, content)
     VALUES ('msg-3', 25, NULL, '2026-04-21 16:31:51', 'chat', '`+familyChat+`', 'telegram', '{"operation":"edit","messageId":"x","text":"edited"}');
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, kind, platform_id, channel_type, content)
     VALUES ('msg-4', 27, NULL, '2026-04-21 16:31:52', 'chat', '`+familyChat+`', 'telegram', '{"operation":"reaction","messageId":"x","emoji":"👍"}');
INSERT INTO messages_out (id, seq, in_reply_to, timestamp, kind, platform_id, channel_type, content)
     VALUES ('msg-5', 29, NULL, '2026-04-21 16:31:53', 'chat', 'ag-1776071004120-w0rk5x', 'agent', '{"text":"FYI: pills at 8"}');`)
		tr := readV2(t, root, Options{Group: "family"})
		got := strings.Join(sent(tr), "\n")
		for _, want := range []string{"2 16  " + familyChat + " Error: overloaded", "2 16  agent:ag-1776071004120-w0rk5x FYI: pills at 8"} {
			if !strings.Contains(got, want) {
				t.Errorf("outbound:\n%s\nwant a line %q", got, want)
			}
		}
		for _, not := range []string{"earlier transcript", "edited", "👍"} {
			if strings.Contains(got, not) {
				t.Errorf("outbound:\n%s\nhas %q", got, not)
			}
		}
	})
	t.Run("both layouts", func(t *testing.T) {
		// A root migrated to NanoClaw 2 keeps store/messages.db: data/v2.db
		// says it is NanoClaw 2.
		root := copyRoot(t, testRootV2)
		copyFile(t, filepath.Join(testRoot, StorePath), filepath.Join(root, StorePath))
		if tr := readV2(t, root, Options{Group: "family"}); tr.Source.Version != "2" {
			t.Errorf("version %s, want 2", tr.Source.Version)
		}
	})
}

func TestReadV2Errors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(t *testing.T, root string)
		o     Options
		wants []string
	}{
		{"a folder that is no agent group", func(t *testing.T, root string) { mkdir(t, root, "groups/other") },
			Options{Group: "other"}, []string{"group other is not an agent group in r/data/v2.db (agent groups: family, work)"}},
		{"a group without a session", nil, Options{Group: "work"}, []string{"group work has no session in r/data/v2.db"}},
		{"an unknown session", nil, Options{Group: "family", Session: "sess-1"},
			[]string{"group family has no session sess-1 in r/data/v2.db (sessions: " + sessFamily + ")"}},
		{"several sessions", func(t *testing.T, root string) {
			appendSQL(t, root, "data/v2.sql", `INSERT INTO sessions (id, agent_group_id, created_at) VALUES ('sess-2', '`+agentFamily+`', '2026-04-30T00:00:00.000Z');`)
		}, Options{Group: "family"}, []string{"group family has 2 sessions in r/data/v2.db; choose one: " + sessFamily + ", sess-2"}},
		{"an unknown task", nil, Options{Group: "family", Task: "task-nope"},
			[]string{"task task-nope: no session of group family has it in its inbound.db (sessions: " + sessFamily + ")"}},
		{"an unknown task in the named session", nil, Options{Group: "family", Session: sessFamily, Task: "task-nope"},
			[]string{"task task-nope: no such task in r/" + sessionRel + "inbound.db"}},
		{"a task that has not run", nil, Options{Group: "family", Task: pillNext},
			[]string{"task " + pillNext + " has not run yet in session " + sessFamily + " (r/" + sessionRel + "inbound.db: due at 2026-04-23T12:00:00.000Z, pending)"}},
		{"a run missing from the transcript", func(t *testing.T, root string) {
			keepLines(t, filepath.Join(root, claudeRel+transcript2+".jsonl"), 16)
		}, Options{Group: "family", Task: pillTask},
			[]string{"task " + pillTask + ": the transcript " + transcript2 + " has no run of the occurrence due at 2026-04-22T12:00:00.000Z"}},
		{"a session without its inbound.db", func(t *testing.T, root string) {
			rm(t, root, sessionRel+"inbound.db")
		}, Options{Group: "family"}, []string{"read r/" + sessionRel + "inbound.db: session " + sessFamily + " has no inbound.db"}},
		{"a transcript that is missing", func(t *testing.T, root string) {
			rm(t, root, claudeRel+transcript2+".jsonl")
		}, Options{Group: "family"}, []string{"session " + sessFamily + " resumes Claude Code session " + transcript2 + " (r/" + sessionRel + "outbound.db), which is not in r/" + strings.TrimSuffix(claudeRel, "/") + " (transcripts: none)"}},
		{"another provider", func(t *testing.T, root string) {
			appendSQL(t, root, sessionRel+"outbound.sql", `DELETE FROM session_state; INSERT INTO session_state (key, value, updated_at) VALUES ('continuation:codex', 'thread-1', '2026-04-22T00:00:00.000Z');`)
		}, Options{Group: "family"}, []string{"session " + sessFamily + " ran on provider codex (r/" + sessionRel + "outbound.db), which keeps no Claude Code transcript"}},
		{"no continuation and several transcripts", func(t *testing.T, root string) {
			appendSQL(t, root, sessionRel+"outbound.sql", `DELETE FROM session_state;`)
			copyFile(t, filepath.Join(root, claudeRel+transcript2+".jsonl"), filepath.Join(root, claudeRel+"aaa.jsonl"))
		}, Options{Group: "family"}, []string{"session " + sessFamily + " names no Claude Code session (r/" + sessionRel + "outbound.db has no continuation:claude), and r/" + strings.TrimSuffix(claudeRel, "/") + " has 2 transcripts: aaa, " + transcript2}},
		{"a database with a write-ahead log", func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, "data/v2.db-wal"), []byte("frames"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, Options{Group: "family"}, []string{"read r/data/v2.db: v2.db-wal holds changes not yet in the database"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each reads its own copy
			root := copyRoot(t, testRootV2)
			if tc.edit != nil {
				tc.edit(t, root)
			}
			o := tc.o
			o.Root, o.Display = root, "r"
			tr, err := Read(o)
			if err == nil {
				t.Fatalf("Read = %+v, want an error", tr.Source)
			}
			for _, want := range tc.wants {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q\nwant it to contain %q", err, want)
				}
			}
		})
	}
}

// TestReadV2Continuation reads a session whose outbound.db names no
// Claude Code session (after /clear): the group's only transcript.
func TestReadV2Continuation(t *testing.T) {
	root := copyRoot(t, testRootV2)
	appendSQL(t, root, sessionRel+"outbound.sql", `DELETE FROM session_state;`)
	if tr := readV2(t, root, Options{Group: "family"}); len(tr.Turns) != 4 {
		t.Errorf("%d turns, want the only transcript's 4", len(tr.Turns))
	}
	root = copyRoot(t, testRootV2)
	appendSQL(t, root, sessionRel+"outbound.sql", `UPDATE session_state SET key = 'sdk_session_id';`)
	if tr := readV2(t, root, Options{Group: "family"}); len(tr.Turns) != 4 {
		t.Errorf("%d turns, want the transcript that sdk_session_id names", len(tr.Turns))
	}
}

// copyRoot copies a test root to a temporary folder.
func copyRoot(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		copyFile(t, p, filepath.Join(dst, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// appendSQL adds statements to a root's SQL file and rebuilds its database.
func appendSQL(t *testing.T, root, rel, sql string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, "\n"+sql+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	buildDB(t, p, strings.TrimSuffix(p, ".sql")+".db")
}

// mkSession makes a NanoClaw 2 session folder with empty databases plus
// the rows given.
func mkSession(t *testing.T, root, id, inbound, outbound string) {
	t.Helper()
	dir := filepath.Join(root, "data/v2-sessions", agentFamily, id)
	for name, rows := range map[string]string{"inbound.sql": inbound, "outbound.sql": outbound} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rows), 0o644); err != nil {
			t.Fatal(err)
		}
		buildDB(t, p, strings.TrimSuffix(p, ".sql")+".db")
	}
}

func mkdir(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

func rm(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

// keepLines cuts a file to its first n lines.
func keepLines(t *testing.T, p string, n int) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(p, []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
}
