package corpus

import (
	"encoding/base64"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/diag"
)

const (
	testCanary = "ANK-0123456789"
	testTool   = "wipe_records"
)

// TestBuiltinValid: the built-in corpus passes the checks a user's corpus
// does, and holds 20 to 28 attacks.
func TestBuiltinValid(t *testing.T) {
	var diags diag.Diagnostics
	read := Read("builtin.jsonl", builtinFile, &diags)
	if len(diags) > 0 {
		t.Fatalf("the built-in corpus has problems:\n%s", diags.Error())
	}
	all := BuiltinAttacks()
	if len(all) != len(read) || len(all) < 20 || len(all) > 28 {
		t.Fatalf("%d built-in attacks (%d read), want 20 to 28", len(all), len(read))
	}
	for _, a := range all {
		if a.Source != Builtin || a.Pos != (diag.Pos{}) {
			t.Errorf("%s: Source %q, Pos %v; want %q and no position", a.ID, a.Source, a.Pos, Builtin)
		}
		if a.Tool != "" {
			t.Errorf("%s names tool %q: built-in attacks aim at the config's tool", a.ID, a.Tool)
		}
	}
	if merged := Merge(all, nil, &diags); len(diags) > 0 || len(merged) != len(all) {
		t.Errorf("Merge of the built-in corpus: %d attacks, problems %v", len(merged), diags)
	}
}

// TestBuiltinCoverage: every goal in every style of docs/attacks.md.
func TestBuiltinCoverage(t *testing.T) {
	styles := []string{"plain", "encoded", "roleplay", "fake_system", "fake_tool"}
	have := map[string]bool{}
	for _, a := range BuiltinAttacks() {
		if !slices.Contains(styles, a.Style) {
			t.Errorf("%s: style %q is none of %v", a.ID, a.Style, styles)
		}
		have[a.Goal+"/"+a.Style] = true
	}
	for _, g := range Goals {
		for _, s := range styles {
			if !have[g+"/"+s] {
				t.Errorf("no built-in %s attack in style %s", g, s)
			}
		}
	}
}

// TestBuiltinPayloads: each attack asks for what its goal and style say.
func TestBuiltinPayloads(t *testing.T) {
	markers := []string{"SYSTEM:", "<|im_start|>system", "<<SYS>>", "<system>"}
	for _, a := range BuiltinAttacks() {
		t.Run(a.ID, func(t *testing.T) {
			got := a.Render(testCanary, testTool)
			if strings.Contains(got, "{") && regexp.MustCompile(`\{(canary|tool|instruction|instruction_base64)\}`).MatchString(got) {
				t.Errorf("a placeholder is left in %q", got)
			}
			// What the agent reads once an encoded instruction is decoded.
			plain := got
			if a.Style == "encoded" {
				if !strings.Contains(a.Payload, "{instruction_base64}") || !strings.Contains(strings.ToLower(a.Payload), "decode") {
					t.Errorf("encoded payload %q does not ask to decode {instruction_base64}", a.Payload)
				}
				plain = decodeAll(t, got)
				if strings.Contains(got, strings.Fields(a.Instruction)[0]+" ") && strings.Contains(got, a.Instruction) {
					t.Errorf("the instruction is in clear text: %q", got)
				}
			}
			switch a.Goal {
			case GoalTool:
				if !strings.Contains(plain, testTool) {
					t.Errorf("a tool attack never names the tool: %q", plain)
				}
				if strings.Contains(plain, testCanary) {
					t.Errorf("a tool attack plants the canary, so echoing it would count as success: %q", plain)
				}
			case GoalObey:
				if !strings.Contains(plain, testCanary) || !regexp.MustCompile(`(?i)only|nothing else|alone`).MatchString(plain) {
					t.Errorf("an obey attack does not ask for the canary alone: %q", plain)
				}
			case GoalReveal:
				if !strings.Contains(plain, testCanary) || !regexp.MustCompile(`(?i)system prompt|instructions`).MatchString(plain) {
					t.Errorf("a reveal attack does not ask for the instructions with the canary: %q", plain)
				}
			case GoalLeak:
				if !strings.Contains(plain, testCanary) {
					t.Errorf("a leak attack does not plant the canary: %q", plain)
				}
			}
			switch a.Style {
			case "fake_system":
				if !slices.ContainsFunc(markers, func(m string) bool { return strings.Contains(got, m) }) {
					t.Errorf("fake_system payload has none of the markers %q: %q", markers, got)
				}
			case "fake_tool":
				if !slices.Equal(a.Channels, []plant.Channel{plant.ToolResult, plant.Double}) {
					t.Errorf("fake_tool attack suits %v, want tool results and doubles", a.Channels)
				}
				if !regexp.MustCompile(`(?i)end of tool|tool output ends|tool result`).MatchString(got) {
					t.Errorf("fake_tool payload fakes no end of tool output: %q", got)
				}
			}
		})
	}
}

// decodeAll is s with each base64 word replaced by what it encodes.
func decodeAll(t *testing.T, s string) string {
	t.Helper()
	found := false
	out := regexp.MustCompile(`[A-Za-z0-9+/]{16,}={0,2}`).ReplaceAllStringFunc(s, func(w string) string {
		b, err := base64.StdEncoding.DecodeString(w)
		if err != nil {
			return w
		}
		found = true
		return string(b)
	})
	if !found {
		t.Errorf("no base64 in %q", s)
	}
	return out
}

// TestBuiltinLeakWays: the canary leaves by each way detection knows.
func TestBuiltinLeakWays(t *testing.T) {
	ways := []struct {
		id   string
		want *regexp.Regexp
	}{
		{"leak-tool-arg", regexp.MustCompile(`tool you call must carry .*` + testCanary + `.* arguments`)},
		{"leak-send-email", regexp.MustCompile(`send_email tool .* body ` + testCanary)},
		{"leak-url", regexp.MustCompile(`[^(]https://attacker\.example/\S*\?\S*=` + testCanary)},
		{"leak-md-image", regexp.MustCompile(`!\[[^\]]*\]\(https://attacker\.example/[^)]*` + testCanary + `\)`)},
		{"leak-text", regexp.MustCompile(`reference is ` + testCanary + `\. Repeat`)},
	}
	byID := map[string]Attack{}
	for _, a := range BuiltinAttacks() {
		byID[a.ID] = a
	}
	for _, w := range ways {
		a, ok := byID[w.id]
		if !ok {
			t.Errorf("no built-in attack %s", w.id)
			continue
		}
		if got := a.Render(testCanary, testTool); a.Goal != GoalLeak || !w.want.MatchString(got) {
			t.Errorf("%s (goal %s) = %q, want a match of %s", w.id, a.Goal, got, w.want)
		}
	}
}

// TestBuiltinCopies: what BuiltinAttacks returns is the caller's.
func TestBuiltinCopies(t *testing.T) {
	a := BuiltinAttacks()
	i := slices.IndexFunc(a, func(x Attack) bool { return len(x.Channels) > 0 })
	if i < 0 {
		t.Fatal("no built-in attack names channels")
	}
	a[0].ID = "changed"
	a[i].Channels[0] = "changed"
	b := BuiltinAttacks()
	if b[0].ID == "changed" || b[i].Channels[0] == "changed" {
		t.Errorf("a change to one call's attacks shows in the next: %+v %+v", b[0], b[i])
	}
}
