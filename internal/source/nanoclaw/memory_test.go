package nanoclaw

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ananke/action/internal/trace"
)

func TestCallMemory(t *testing.T) {
	ok := func(content string) *trace.Result { return &trace.Result{Content: content} }
	failed := &trace.Result{Content: "EROFS: read-only file system", Error: "EROFS: read-only file system"}
	for _, tc := range []struct {
		name   string
		group  string // default family
		tool   string
		args   string
		result *trace.Result
		want   string // op group path content, one event a line
	}{
		{"read", "", "Read", `{"file_path":"/workspace/group/CLAUDE.md"}`, ok("1→# Family"),
			"read family groups/family/CLAUDE.md 1→# Family"},
		{"read relative", "", "Read", `{"file_path":"notes/vet.md"}`, ok("x"), "read family groups/family/notes/vet.md x"},
		{"read global", "", "Read", `{"file_path":"/workspace/global/CLAUDE.md"}`, ok("g"), "read global groups/global/CLAUDE.md g"},
		{"read another group", "main", "Read", `{"file_path":"/workspace/project/groups/family/CLAUDE.md"}`, ok("f"),
			"read family groups/family/CLAUDE.md f"},
		{"read the main group's own folder", "main", "Read", `{"file_path":"/workspace/group/CLAUDE.md"}`, ok("m"),
			"read main groups/main/CLAUDE.md m"},
		{"read that failed", "", "Read", `{"file_path":"/workspace/group/nope.md"}`, &trace.Result{Content: "File does not exist.", Error: "File does not exist."},
			"read family groups/family/nope.md "},
		{"read without a result", "", "Read", `{"file_path":"/workspace/group/CLAUDE.md"}`, nil, "read family groups/family/CLAUDE.md "},
		{"read outside the groups", "main", "Read", `{"file_path":"/workspace/project/src/db.ts"}`, ok("x"), ""},
		{"read tmp", "", "Read", `{"file_path":"/tmp/out.txt"}`, ok("x"), ""},
		{"glob in the working directory", "", "Glob", `{"pattern":"**/*.md"}`, ok("a"), "read family groups/family a"},
		{"glob with a path", "main", "Glob", `{"pattern":"*.md","path":"/workspace/project/groups/work"}`, ok("w"),
			"read work groups/work w"},
		{"glob absolute", "", "Glob", `{"pattern":"/workspace/global/*.md"}`, ok("g"), "read global groups/global g"},
		{"glob over every group", "main", "Glob", `{"pattern":"/workspace/project/groups/*/CLAUDE.md"}`, ok("x"), ""},
		{"grep in the working directory", "", "Grep", `{"pattern":"Maple"}`, ok("m"), "read family groups/family m"},
		{"grep with a path", "", "Grep", `{"pattern":"x","path":"/workspace/global"}`, ok("g"), "read global groups/global g"},
		{"ls", "", "LS", `{"path":"/workspace/group/notes"}`, ok("n"), "read family groups/family/notes n"},
		{"bash", "main", "Bash", `{"command":"cat /workspace/project/groups/family/CLAUDE.md | grep -i maple"}`, ok("14 Maple Street"),
			"read family groups/family/CLAUDE.md 14 Maple Street"},
		{"bash relative files that exist", "", "Bash", `{"command":"cat notes/shopping.md CLAUDE.md"}`, ok("s"),
			"read family groups/family/notes/shopping.md s\nread family groups/family/CLAUDE.md s"},
		{"bash relative file that does not exist", "", "Bash", `{"command":"cat notes/missing.md"}`, ok(""), ""},
		{"bash without paths", "", "Bash", `{"command":"date"}`, ok("Wed"), ""},
		{"write", "", "Write", `{"file_path":"/workspace/group/notes/vet.md","content":"# Vet"}`, ok("File created"),
			"write family groups/family/notes/vet.md # Vet"},
		{"edit", "", "Edit", `{"file_path":"/workspace/group/CLAUDE.md","old_string":"a","new_string":"b"}`, ok("updated"),
			"write family groups/family/CLAUDE.md b"},
		{"multi edit", "", "MultiEdit", `{"file_path":"/workspace/group/CLAUDE.md","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`,
			ok("updated"), "write family groups/family/CLAUDE.md b\nd"},
		{"notebook edit", "", "NotebookEdit", `{"notebook_path":"/workspace/group/n.ipynb","new_source":"print(1)"}`, ok("ok"),
			"write family groups/family/n.ipynb print(1)"},
		{"write to global memory", "main", "Write", `{"file_path":"/workspace/global/CLAUDE.md","content":"g"}`, ok("ok"),
			"write global groups/global/CLAUDE.md g"},
		{"write that failed", "", "Write", `{"file_path":"/workspace/global/CLAUDE.md","content":"g"}`, failed, ""},
		{"write outside the groups", "", "Write", `{"file_path":"/tmp/x","content":"g"}`, ok("ok"), ""},
		{"another tool", "", "WebFetch", `{"url":"https://example.com/workspace/group/CLAUDE.md"}`, ok("x"), ""},
		{"args that are not JSON", "", "Read", `{"file_path":`, ok("x"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			group := tc.group
			if group == "" {
				group = "family"
			}
			r := &reader{Options: Options{Root: testRoot, Group: group}}
			c := &trace.ToolCall{ID: "toolu_1", Name: tc.tool, Args: tc.args, ArgsJSON: jsonValid(tc.args),
				Result: tc.result, StartSeq: 7, StartedMs: 1000}
			var lines []string
			for _, m := range r.callMemory(c) {
				if m.Seq != 7 || m.TimestampMs != 1000 || m.CallID != "toolu_1" {
					t.Errorf("event %+v: want seq 7, timestamp 1000, call toolu_1", m)
				}
				lines = append(lines, fmt.Sprintf("%s %s %s %s", m.Op, m.Group, m.Path, m.Content))
			}
			if got := strings.Join(lines, "\n"); got != tc.want {
				t.Errorf("memory events:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func jsonValid(s string) bool { return strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") }

// TestStartMemory checks what each layout loads when a session starts:
// the group's memory file, NanoClaw 1's global memory for a group other
// than main, and the first 200 lines of the auto-memory's MEMORY.md.
func TestStartMemory(t *testing.T) {
	var index strings.Builder
	for i := 1; i <= 250; i++ {
		fmt.Fprintf(&index, "- note %d\n", i)
	}
	for _, tc := range []struct {
		name string
		r    reader
		want []string // path: first line … last line
	}{
		{"1", reader{Options: Options{Group: "family"}}, []string{
			"groups/family/CLAUDE.md: # Family",
			"groups/global/CLAUDE.md: # Andy",
			"data/sessions/family/.claude/projects/-workspace-group/memory/MEMORY.md: - note 1 … - note 200",
		}},
		{"1, main", reader{Options: Options{Group: "family"}, isMain: true}, []string{
			"groups/family/CLAUDE.md: # Family",
			"data/sessions/family/.claude/projects/-workspace-group/memory/MEMORY.md: - note 1 … - note 200",
		}},
		{"2", reader{Options: Options{Group: "family"}, lay: layoutV2, agentGroup: "ag-1"}, []string{
			"groups/family/CLAUDE.local.md: # Family (local)",
			"data/v2-sessions/ag-1/.claude-shared/projects/-workspace-agent/memory/MEMORY.md: - note 1 … - note 200",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.r.Root = mkroot(t, map[string]string{
				"groups/family/CLAUDE.md":       "# Family\n",
				"groups/family/CLAUDE.local.md": "# Family (local)\n",
				"groups/global/CLAUDE.md":       "# Andy\n",
				"data/sessions/family/.claude/projects/-workspace-group/memory/MEMORY.md":         index.String(),
				"data/v2-sessions/ag-1/.claude-shared/projects/-workspace-agent/memory/MEMORY.md": index.String(),
			})
			turn := &trace.Turn{StartMs: 5, Events: []trace.Event{{Seq: 3}}}
			tc.r.startMemory(turn)
			var got []string
			for _, m := range turn.Memory {
				lines := strings.Split(strings.TrimSuffix(m.Content, "\n"), "\n")
				s := m.Path + ": " + lines[0]
				if len(lines) > 1 {
					s += " … " + lines[len(lines)-1]
				}
				if m.Seq != 3 || m.TimestampMs != 5 || m.Op != trace.MemoryRead || m.Group == "" {
					t.Errorf("event %+v", m)
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("start memory:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestAutoMemoryCalls checks that tool calls on the auto-memory are the
// group's memory, by absolute path, ~ and in shell commands.
func TestAutoMemoryCalls(t *testing.T) {
	root := mkroot(t, map[string]string{"groups/family/CLAUDE.md": "x"})
	const dir = "data/sessions/family/.claude/projects/-workspace-group/memory/"
	for _, tc := range []struct{ tool, args, want string }{
		{"Read", `{"file_path":"/home/node/.claude/projects/-workspace-group/memory/vet.md"}`, "read family " + dir + "vet.md"},
		{"Write", `{"file_path":"~/.claude/projects/-workspace-group/memory/vet.md","content":"Fri"}`, "write family " + dir + "vet.md"},
		{"Bash", `{"command":"cat ~/.claude/projects/-workspace-group/memory/MEMORY.md"}`, "read family " + dir + "MEMORY.md"},
		{"Bash", `{"command":"grep -r vet /home/node/.claude/projects/-workspace-group/memory/"}`, "read family " + strings.TrimSuffix(dir, "/")},
	} {
		r := &reader{Options: Options{Root: root, Group: "family"}}
		c := &trace.ToolCall{ID: "toolu_1", Name: tc.tool, Args: tc.args, ArgsJSON: true, Result: &trace.Result{Content: "ok"}}
		var got []string
		for _, m := range r.callMemory(c) {
			got = append(got, m.Op+" "+m.Group+" "+m.Path)
		}
		if strings.Join(got, "\n") != tc.want {
			t.Errorf("%s %s: memory %q, want %q", tc.tool, tc.args, got, tc.want)
		}
	}
}
