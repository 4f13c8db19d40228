package nanoclaw

import (
	"strings"
	"testing"
)

func TestHostPath(t *testing.T) {
	for _, tc := range []struct {
		path, group string
		owner, rel  string
		ok          bool
	}{
		{"/workspace/group/CLAUDE.md", "family", "family", "groups/family/CLAUDE.md", true},
		{"/workspace/group", "family", "family", "groups/family", true},
		{"/workspace/group/", "family", "family", "groups/family", true},
		{"/workspace/group/conversations/2026-04-01-vet.md", "family", "family", "groups/family/conversations/2026-04-01-vet.md", true},
		{"CLAUDE.md", "family", "family", "groups/family/CLAUDE.md", true},
		{"notes/vet.md", "family", "family", "groups/family/notes/vet.md", true},
		{".", "work", "work", "groups/work", true},
		{"/workspace/global/CLAUDE.md", "family", "global", "groups/global/CLAUDE.md", true},
		{"/workspace/project/groups/family/CLAUDE.md", "main", "family", "groups/family/CLAUDE.md", true},
		{"/workspace/project/groups/family", "main", "family", "groups/family", true},
		{"/workspace/project/groups/main/CLAUDE.md", "main", "main", "groups/main/CLAUDE.md", true},
		{"/workspace/project/groups/global/CLAUDE.md", "main", "global", "groups/global/CLAUDE.md", true},
		{"/workspace/group/../project/groups/work/CLAUDE.md", "main", "work", "groups/work/CLAUDE.md", true},
		{"../global/CLAUDE.md", "family", "global", "groups/global/CLAUDE.md", true},
		{"/workspace/project/groups", "main", "", "", false},
		{"/workspace/project/groups/../store/messages.db", "main", "", "", false},
		{"/workspace/project/groups/.hidden/x", "main", "", "", false},
		{"/workspace/project/src/index.ts", "main", "", "", false},
		{"/workspace/project/data/sessions/family/.claude/projects/-workspace-group/s.jsonl", "main", "", "", false},
		{"/workspace/ipc/messages/1.json", "family", "", "", false},
		{"/workspace/groupie/x", "family", "", "", false},
		{"/tmp/notes.md", "family", "", "", false},
		{"/home/node/.claude/settings.json", "family", "", "", false},
		{"/home/node/.claude/projects/-workspace-group/memory/MEMORY.md", "family", "family", "data/sessions/family/.claude/projects/-workspace-group/memory/MEMORY.md", true},
		{"~/.claude/projects/-workspace-group/memory/vet.md", "family", "family", "data/sessions/family/.claude/projects/-workspace-group/memory/vet.md", true},
		{"/home/node/.claude/projects/-workspace-group/memory", "work", "work", "data/sessions/work/.claude/projects/-workspace-group/memory", true},
		{"/home/node/.claude/projects/-workspace-group/s1.jsonl", "family", "", "", false},
		{"/home/node/.claude/projects/-workspace-agent/memory/MEMORY.md", "family", "", "", false},
		{"/workspace/agent/CLAUDE.local.md", "family", "", "", false},
		{"", "family", "", "", false},
	} {
		r := &reader{Options: Options{Group: tc.group}}
		owner, rel, ok := r.hostPath(tc.path)
		if owner != tc.owner || rel != tc.rel || ok != tc.ok {
			t.Errorf("hostPath(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.path, tc.group, owner, rel, ok, tc.owner, tc.rel, tc.ok)
		}
	}
}

// TestHostPathV2 maps NanoClaw 2's container paths: the group's folder is
// /workspace/agent, the session's folder /workspace, and no group sees
// the project.
func TestHostPathV2(t *testing.T) {
	const claude = "data/v2-sessions/ag-1/.claude-shared/projects/-workspace-agent/memory"
	for _, tc := range []struct {
		path, owner, rel string
		ok               bool
	}{
		{"/workspace/agent/CLAUDE.local.md", "family", "groups/family/CLAUDE.local.md", true},
		{"/workspace/agent/CLAUDE.md", "family", "groups/family/CLAUDE.md", true},
		{"CLAUDE.local.md", "family", "groups/family/CLAUDE.local.md", true},
		{"notes/vet.md", "family", "groups/family/notes/vet.md", true},
		{"/workspace/global/CLAUDE.md", "global", "groups/global/CLAUDE.md", true},
		{"/home/node/.claude/projects/-workspace-agent/memory/MEMORY.md", "family", claude + "/MEMORY.md", true},
		{"~/.claude/projects/-workspace-agent/memory/biscuit.md", "family", claude + "/biscuit.md", true},
		{"/home/node/.claude/projects/-workspace-group/memory/MEMORY.md", "", "", false},
		{"/workspace/inbound.db", "", "", false},
		{"/workspace/outbox/x.png", "", "", false},
		{"/workspace/group/CLAUDE.md", "", "", false},
		{"/workspace/project/groups/work/CLAUDE.md", "", "", false},
		{"/workspace/extra/docs/a.md", "", "", false},
	} {
		r := &reader{Options: Options{Group: "family"}, lay: layoutV2, agentGroup: "ag-1"}
		owner, rel, ok := r.hostPath(tc.path)
		if owner != tc.owner || rel != tc.rel || ok != tc.ok {
			t.Errorf("hostPath(%q) = %q, %q, %v; want %q, %q, %v", tc.path, owner, rel, ok, tc.owner, tc.rel, tc.ok)
		}
	}
}

func TestClaudeProject(t *testing.T) {
	for in, want := range map[string]string{"/workspace/group": "-workspace-group", "/workspace/agent": "-workspace-agent", "/home/me/my_app.v2": "-home-me-my-app-v2"} {
		if got := claudeProject(in); got != want {
			t.Errorf("claudeProject(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGlobRoot(t *testing.T) {
	for _, tc := range []struct{ pattern, want string }{
		{"**/*.md", "."},
		{"*.md", "."},
		{"notes/*.md", "notes"},
		{"/workspace/project/groups/*/CLAUDE.md", "/workspace/project/groups"},
		{"/workspace/global/**", "/workspace/global"},
		{"/*", "/"},
		{"/workspace/group/CLAUDE.md", "/workspace/group/CLAUDE.md"},
		{"conversations/2026-0?-*.md", "conversations"},
		{"src/{a,b}.ts", "src"},
		{"[ab].md", "."},
	} {
		if got := globRoot(tc.pattern); got != tc.want {
			t.Errorf("globRoot(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

func TestShellWords(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"cat notes/shopping.md", "cat|notes/shopping.md"},
		{`grep -i "dog food" 'notes/shopping list.md'`, "grep|-i|dog food|notes/shopping list.md"},
		{`cat a\ b.md`, "cat|a b.md"},
		{`echo "a \"b\"" && ls -la .`, `echo|a "b"|ls|-la|.`},
		{"cat x|wc -l;ls>out.txt", "cat|x|wc|-l|ls|out.txt"},
		{`echo ""`, "echo|"},
		{"  ", ""},
	} {
		if got := strings.Join(shellWords(tc.command), "|"); got != tc.want {
			t.Errorf("shellWords(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}

func TestCommandPaths(t *testing.T) {
	exists := func(rel string) bool {
		switch rel {
		case ".", "CLAUDE.md", "notes", "notes/shopping.md":
			return true
		}
		return false
	}
	for _, tc := range []struct{ command, want string }{
		{"cat /workspace/project/groups/family/CLAUDE.md | grep -i maple", "/workspace/project/groups/family/CLAUDE.md"},
		{"cat notes/shopping.md CLAUDE.md", "notes/shopping.md|CLAUDE.md"},
		{"ls -la .", "."},
		{"grep -rn Biscuit notes/*.md", "notes"},
		{`cat "/workspace/global/CLAUDE.md"`, "/workspace/global/CLAUDE.md"},
		{"cat /workspace/group/CLAUDE.md; cat /workspace/group/CLAUDE.md", "/workspace/group/CLAUDE.md"},
		{"ls /workspace/project/groups/*/", "/workspace/project/groups"},
		{"sqlite3 /workspace/project/store/messages.db 'select 1'", "/workspace/project/store/messages.db"},
		{"FILE=CLAUDE.md cat missing.md", ""},
		{"echo hello > out.txt", ""},
		{"curl -s https://example.com/workspace/group/x", ""},
		{"date", ""},
	} {
		if got := strings.Join(commandPaths(tc.command, exists), "|"); got != tc.want {
			t.Errorf("commandPaths(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}

func TestStripInternal(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Hello", "Hello"},
		{"<internal>thinking</internal>", ""},
		{"<internal>a</internal>\n\nHi\n<internal>\nb\n</internal>", "Hi"},
		{"  Hi <internal>x</internal> there  ", "Hi  there"},
		{"<internal>unclosed", "<internal>unclosed"},
	} {
		if got := StripInternal(tc.text); got != tc.want {
			t.Errorf("StripInternal(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestIsTaskPrompt(t *testing.T) {
	const p = "Send the digest."
	for _, tc := range []struct {
		first string
		want  bool
	}{
		{ScheduledPrefix + p, true},
		{ScheduledPrefix + p + "\nand a message that was waiting", true},
		{"[SCHEDULED TASK]\n\nScript output:\n{\"n\": 1}\n\nInstructions:\n" + p, true},
		{p, false},
		{ScheduledPrefix + "Send the weather.", false},
		{"", false},
	} {
		if got := isTaskPrompt(tc.first, p); got != tc.want {
			t.Errorf("isTaskPrompt(%q) = %v, want %v", tc.first, got, tc.want)
		}
	}
}
