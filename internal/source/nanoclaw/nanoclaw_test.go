package nanoclaw

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/trace"
)

// The sessions of testdata/root's family group.
const (
	readSession    = "6fa2880f-eff8-459b-b0ee-d1b78dfe8144" // reads its memory
	editSession    = "21a044ec-f09d-4513-9a75-eebfa1bf1818" // edits it; the sessions table's
	digestApr7     = "2f1943e8-f8f0-4c36-a023-979969d6f1a5" // task-morning-digest, April 7
	digestApr8     = "5a0b5f1e-4b5d-4589-a85b-8afd9d8169e8" // task-morning-digest, April 8
	familyJID      = "120363041234567890@g.us"
	testRoot       = "testdata/root"
	transcriptsRel = "data/sessions/family/.claude/projects/-workspace-group/"
)

// view is what the golden files show of a trace: its source and, per
// turn, the prompt, the tool calls, and what the adapter added.
type view struct {
	Source *trace.Source `json:"source"`
	Turns  []turnView    `json:"turns"`
}

type turnView struct {
	Index    int                 `json:"index"`
	User     string              `json:"user"`
	Calls    []string            `json:"calls,omitempty"`
	Memory   []trace.MemoryEvent `json:"memory,omitempty"`
	Outbound []trace.Outbound    `json:"outbound,omitempty"`
}

func render(t *testing.T, tr *trace.Trace) string {
	t.Helper()
	v := view{Source: tr.Source}
	for _, turn := range tr.Turns {
		tv := turnView{Index: turn.Index, User: turn.UserText, Memory: turn.Memory, Outbound: turn.Outbound}
		for _, c := range turn.ToolCalls {
			tv.Calls = append(tv.Calls, c.Name+" "+c.Args)
		}
		v.Turns = append(v.Turns, tv)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReadGolden reads the test root's runs; the golden files show the
// whole result (go test -update rewrites them).
func TestReadGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"default-session", Options{Group: "family"}},
		{"read-session", Options{Group: "family", Session: readSession}},
		{"task-isolated", Options{Group: "family", Task: "task-morning-digest"}},
		{"task-group-context", Options{Group: "family", Task: "task-weekly-recap"}},
		{"task-explicit-session", Options{Group: "family", Task: "task-morning-digest", Session: digestApr7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Root, tc.o.Display = testRoot, "nanoclaw"
			tr, err := Read(tc.o)
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, filepath.Join("testdata", "golden", tc.name+".json"), render(t, tr))
		})
	}
}

// TestReadFacts checks the facts the golden files hold that matter most.
func TestReadFacts(t *testing.T) {
	read := func(t *testing.T, o Options) *trace.Trace {
		t.Helper()
		o.Root, o.Display = testRoot, "nanoclaw"
		tr, err := Read(o)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	t.Run("source", func(t *testing.T) {
		tr := read(t, Options{Group: "family"})
		s := tr.Source
		if s.Adapter != Adapter || s.Version != "1" || s.Mode != "import" || s.Path != "nanoclaw" ||
			s.GroupID != "family" || s.SessionID != editSession || s.TaskID != "" || s.Scheduler != nil {
			t.Errorf("source = %+v", s)
		}
		if got := tr.Turns[0].Events[0].Origin; got != "nanoclaw/"+transcriptsRel+editSession+".jsonl:1" {
			t.Errorf("origin = %q", got)
		}
	})
	t.Run("start memory of a group that is not main", func(t *testing.T) {
		tr := read(t, Options{Group: "family"})
		m := tr.Turns[0].Memory
		if len(m) < 2 || m[0].Path != "groups/family/CLAUDE.md" || m[1].Path != "groups/global/CLAUDE.md" ||
			m[0].Seq != 1 || m[1].Group != "global" || m[0].CallID != "" || !strings.Contains(m[0].Content, "Biscuit") {
			t.Errorf("memory = %+v", m)
		}
	})
	t.Run("scheduler", func(t *testing.T) {
		tr := read(t, Options{Group: "family", Task: "task-morning-digest"})
		sc := tr.Source.Scheduler
		if tr.Source.SessionID != digestApr8 || sc == nil || sc.TaskID != "task-morning-digest" || sc.Trigger != "scheduler" ||
			sc.ScheduleType != "cron" || sc.ScheduleValue != "0 8 * * *" || sc.ContextMode != "isolated" ||
			len(sc.Runs) != 3 || sc.Runs[0].Status != "error" || sc.Runs[2].Status != "success" ||
			sc.Timezone != "America/New_York" {
			t.Errorf("session %s, scheduler = %+v", tr.Source.SessionID, sc)
		}
		out := tr.Turns[0].Outbound
		if len(out) != 1 || out[0].CallID == "" || out[0].To != familyJID {
			t.Errorf("outbound = %+v, want the one send_message (the result is all <internal>)", out)
		}
	})
	t.Run("scheduled for", func(t *testing.T) {
		// The run of April 8 was due at 8:00 New York time; it ended
		// (run_at) 14 s later.
		tr := read(t, Options{Group: "family", Task: "task-morning-digest"})
		if sc := tr.Source.Scheduler; sc.ScheduledFor != "2026-04-08T12:00:00.000Z" || sc.Runs[2].RunAt != "2026-04-08T12:00:14.146Z" {
			t.Errorf("scheduled_for = %q (the run ended at %s), want 2026-04-08T12:00:00.000Z", sc.ScheduledFor, sc.Runs[2].RunAt)
		}
		tr = read(t, Options{Group: "family", Task: "task-morning-digest", Session: digestApr7})
		if sc := tr.Source.Scheduler; sc.ScheduledFor != "2026-04-07T12:00:00.000Z" {
			t.Errorf("April 7: scheduled_for = %q, want 2026-04-07T12:00:00.000Z", sc.ScheduledFor)
		}
	})
	t.Run("group context task", func(t *testing.T) {
		// The weekly recap resumes the family's session, after two chat
		// turns: its run is the last turn, and only the recap is its
		// message (the chat answer before it is not).
		tr := read(t, Options{Group: "family", Task: "task-weekly-recap"})
		sc := tr.Source.Scheduler
		if tr.Source.SessionID != editSession || sc.ContextMode != "group" || len(sc.Runs) != 1 ||
			sc.ScheduledFor != "2026-04-10T22:00:00.000Z" || sc.Runs[0].RunAt != "2026-04-10T22:01:02.843Z" {
			t.Errorf("session %s, scheduler = %+v", tr.Source.SessionID, sc)
		}
		if len(tr.Turns) != 1 || tr.Turns[0].Index != 0 || tr.Turns[0].UserText != ScheduledPrefix+sc.Prompt ||
			tr.TestStartMs != tr.Turns[0].StartMs || tr.Turns[0].ToolCalls[0].Turn != 0 {
			t.Fatalf("%d turns, first %q: want the task's turn alone", len(tr.Turns), tr.Turns[0].UserText)
		}
		var sent []string
		for _, turn := range tr.Turns {
			for _, o := range turn.Outbound {
				sent = append(sent, o.Text)
			}
		}
		if len(sent) != 1 || !strings.HasPrefix(sent[0], "This week:") {
			t.Errorf("outbound = %q, want the recap only", sent)
		}
		if ev := tr.Turns[0].Events[0]; ev.Seq != 9 || ev.Origin != "nanoclaw/"+transcriptsRel+editSession+".jsonl:9" {
			t.Errorf("first event seq %d origin %q: want the transcript's line 9", ev.Seq, ev.Origin)
		}
		// The run's container loaded the memory again when it resumed
		// the session.
		if m := tr.Turns[0].Memory; len(m) != 3 || m[0].Path != "groups/family/CLAUDE.md" || m[0].Seq != 9 ||
			m[2].Path != "groups/family/notes/vet.md" || m[2].CallID == "" {
			t.Errorf("memory = %+v, want the start's reads at line 9, then the run's read of notes/vet.md", m)
		}
	})
	t.Run("outbound", func(t *testing.T) {
		tr := read(t, Options{Group: "family"})
		out := tr.Turns[0].Outbound
		if len(out) != 1 || out[0].Text != "Got it:\n• Biscuit's vet visit: Friday 10am with Dr. Okafor" || out[0].CallID != "" {
			t.Errorf("turn 0 outbound = %+v", out)
		}
		if out := tr.Turns[1].Outbound; len(out) != 0 {
			t.Errorf("turn 1 outbound = %+v, want none (its text is all <internal>)", out)
		}
	})
}

// mkroot makes a NanoClaw root of the files (path: content).
func mkroot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// withDB adds store/messages.db, built from NanoClaw's schema and rows, to
// root.
func withDB(t *testing.T, root, rows string) string {
	t.Helper()
	sqlPath := filepath.Join(t.TempDir(), "messages.sql")
	if err := os.WriteFile(sqlPath, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	buildDB(t, sqlPath, filepath.Join(root, StorePath))
	return root
}

// transcript copies one of the test root's transcripts.
func transcript(t *testing.T, id string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testRoot, transcriptsRel+id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadErrors(t *testing.T) {
	family := map[string]string{"groups/family/CLAUDE.md": "# Family\n"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range family {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	two := with(map[string]string{
		transcriptsRel + "aaa.jsonl": transcript(t, readSession),
		transcriptsRel + "bbb.jsonl": transcript(t, editSession),
	})
	for _, tc := range []struct {
		name  string
		root  func(t *testing.T) string
		o     Options
		wants []string
	}{
		{"no root", func(*testing.T) string { return "" }, Options{Group: "family"}, []string{"nanoclaw: no root"}},
		{"missing root", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") },
			Options{Group: "family"}, []string{"nanoclaw root r:", "no such file"}},
		{"root is a file", func(t *testing.T) string { return filepath.Join(mkroot(t, family), "groups/family/CLAUDE.md") },
			Options{Group: "family"}, []string{"nanoclaw root r:", "not a directory"}},
		{"no group", func(t *testing.T) string { return mkroot(t, family) }, Options{}, []string{"no group folder"}},
		{"group path", func(t *testing.T) string { return mkroot(t, family) },
			Options{Group: "../family"}, []string{`"../family" is not a group folder name`}},
		{"group global", func(t *testing.T) string { return mkroot(t, family) },
			Options{Group: "global"}, []string{`"global" is not a group folder name`}},
		{"missing group folder", func(t *testing.T) string { return mkroot(t, family) },
			Options{Group: "work"}, []string{"nanoclaw group work: r/groups/work:", "no such file"}},
		{"no transcript", func(t *testing.T) string { return mkroot(t, family) },
			Options{Group: "family"}, []string{"group family has no transcript: r/" + strings.TrimSuffix(transcriptsRel, "/") + " has no .jsonl file"}},
		{"several transcripts", func(t *testing.T) string { return mkroot(t, two) },
			Options{Group: "family"}, []string{"group family has 2 transcripts in r/data/sessions/family/", "choose one: aaa, bbb"}},
		{"unknown session", func(t *testing.T) string { return mkroot(t, two) },
			Options{Group: "family", Session: "ccc"}, []string{"group family has no session ccc in r/data/sessions/family/", "(sessions: aaa, bbb)"}},
		{"session with a path", func(t *testing.T) string { return mkroot(t, two) },
			Options{Group: "family", Session: "../aaa"}, []string{"has no session ../aaa"}},
		{"sessions table names a missing transcript", func(t *testing.T) string {
			return withDB(t, mkroot(t, two), "INSERT INTO sessions (group_folder, session_id) VALUES ('family', 'zzz');")
		}, Options{Group: "family"}, []string{"group family has no session zzz (the group's session in r/store/messages.db)"}},
		{"task without a database", func(t *testing.T) string { return mkroot(t, two) },
			Options{Group: "family", Task: "t1"}, []string{"task t1: r/store/messages.db does not exist"}},
		{"unknown task", func(*testing.T) string { return testRoot },
			Options{Group: "family", Task: "task-nope"}, []string{"task task-nope: no such task in r/store/messages.db"}},
		{"task of another group", func(*testing.T) string { return testRoot },
			Options{Group: "family", Task: "task-standup"}, []string{"task task-standup belongs to group work, not family"}},
		{"group context task without a session", func(t *testing.T) string {
			return withDB(t, mkroot(t, two), `INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, schedule_type, schedule_value, context_mode, created_at)
				VALUES ('t1', 'family', 'j', 'p', 'once', '2026-04-01T09:00:00', 'group', '2026-03-01T00:00:00.000Z');`)
		}, Options{Group: "family", Task: "t1"}, []string{"task t1 runs in the group's session, and group family has no session in r/store/messages.db"}},
		{"group context task with no run in the session", func(t *testing.T) string {
			return withDB(t, mkroot(t, two), `INSERT INTO sessions (group_folder, session_id) VALUES ('family', 'bbb');
				INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, schedule_type, schedule_value, context_mode, created_at)
				VALUES ('t1', 'family', 'j', 'Water the plants.', 'once', '2026-04-01T09:00:00', 'group', '2026-03-01T00:00:00.000Z');`)
		}, Options{Group: "family", Task: "t1"}, []string{"task t1: session bbb has no run of the task (no prompt is NanoClaw's scheduled-task prefix and the task's prompt)"}},
		{"isolated task without its transcript", func(t *testing.T) string {
			return withDB(t, mkroot(t, two), `INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, schedule_type, schedule_value, created_at)
				VALUES ('t1', 'family', 'j', 'Water the plants.', 'once', '2026-04-01T09:00:00', '2026-03-01T00:00:00.000Z');`)
		}, Options{Group: "family", Task: "t1"}, []string{"task t1: no transcript in r/data/sessions/family/", "starts with the task's prompt (sessions: aaa, bbb)"}},
		{"no prompt in the transcript", func(t *testing.T) string {
			return mkroot(t, with(map[string]string{transcriptsRel + "aaa.jsonl": `{"type":"summary","summary":"x","leafUuid":"u"}` + "\n"}))
		}, Options{Group: "family"}, []string{"no user prompt in r/data/sessions/family/.claude/projects/-workspace-group/aaa.jsonl"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Root, o.Display = tc.root(t), "r"
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

// TestReadWithoutStore reads roots without store/messages.db: the group
// named main is the main group, which does not load the global memory.
func TestReadWithoutStore(t *testing.T) {
	for _, tc := range []struct {
		group string
		want  []string // the paths of the start memory
	}{
		{"main", []string{"groups/main/CLAUDE.md"}},
		{"family", []string{"groups/family/CLAUDE.md", "groups/global/CLAUDE.md"}},
		{"work", []string{"groups/global/CLAUDE.md"}}, // it has no CLAUDE.md
	} {
		t.Run(tc.group, func(t *testing.T) {
			files := map[string]string{
				"groups/global/CLAUDE.md":           "# Andy\n",
				"groups/" + tc.group + "/CLAUDE.md": "# " + tc.group + "\n",
				"data/sessions/" + tc.group + "/.claude/projects/-workspace-group/s1.jsonl": transcript(t, readSession),
			}
			if tc.group == "work" {
				delete(files, "groups/work/CLAUDE.md")
				files["groups/work/notes.md"] = "x"
			}
			tr, err := Read(Options{Root: mkroot(t, files), Group: tc.group})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range tr.Turns[0].Memory {
				if m.CallID == "" {
					got = append(got, m.Path)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("start memory = %v, want %v", got, tc.want)
			}
			if out := tr.Turns[0].Outbound; len(out) != 1 || out[0].To != "" {
				t.Errorf("outbound = %+v, want one message to no known chat", out)
			}
		})
	}
}
