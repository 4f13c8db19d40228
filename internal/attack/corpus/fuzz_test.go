package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/diag"
)

// FuzzRead feeds arbitrary files to the reader: it never panics, every
// problem has a position in the file, and every attack it gives is whole
// and detectable.
func FuzzRead(f *testing.F) {
	f.Add(builtinFile)
	f.Add([]byte(`{"id": "a", "goal": "obey", "payload": "{canary}", "channels": ["user", "user"]}` + "\n" + `{"id": "a"}`))
	f.Add([]byte(`{"id": "t", "goal": "tool", "payload": "{instruction_base64}", "instruction": "call x", "tool": "x"}`))
	f.Add([]byte("\uFEFF{\"id\": \"ü\", \"goal\": 1, \"payload\": [], \"x\": {}}\r\n\n[1, 2]\n\"s\"\n{"))
	f.Add([]byte(`{"id": "a", "goal": "leak", "payload": "{instruction}", "instruction": "{canary}", "style": "x.y"} {}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var diags diag.Diagnostics
		got := Read("f.jsonl", data, &diags)
		for _, d := range diags {
			if d.Pos.File != "f.jsonl" || d.Pos.Line < 1 || d.Pos.Col < 1 || d.Message == "" {
				t.Fatalf("problem without a position or a message: %+v", d)
			}
		}
		if len(got) == 0 && len(diags) == 0 {
			t.Fatal("no attack and no problem")
		}
		ids := map[string]bool{}
		for _, a := range got {
			if a.ID == "" || a.Payload == "" || !slices.Contains(Goals, a.Goal) || a.Style == "" {
				t.Fatalf("incomplete attack: %+v", a)
			}
			if ids[a.ID] {
				t.Fatalf("id %q given twice", a.ID)
			}
			ids[a.ID] = true
			if !strings.HasPrefix(a.Source, "f.jsonl:") || a.Pos.Line < 1 {
				t.Fatalf("attack without its place: %+v", a)
			}
			for _, c := range a.Channels {
				if !plant.Known(c) {
					t.Fatalf("unknown channel %q", c)
				}
			}
			// The instruction in clear text, where the payload encodes it.
			clear := a
			clear.Payload = strings.ReplaceAll(a.Payload, "{instruction_base64}", "{instruction}")
			r := clear.Render("ANK-FUZZ", "fuzz_tool")
			if a.Goal != GoalTool && !strings.Contains(r, "ANK-FUZZ") {
				t.Fatalf("%s attack never plants the canary: %q", a.Goal, r)
			}
		}
	})
}
