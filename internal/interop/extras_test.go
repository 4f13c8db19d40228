//go:build unix

package interop

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
)

// checkExtras reads what a trace file keeps beside text and calls — each
// turn's activity messages, sub-agent runs, and the sub-agent of each call
// made in one — and compares it, a line each, with want.
func checkExtras(t *testing.T, path string, want []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read trace: %v", err)
	}
	var tr struct {
		Turns []struct {
			Index      int `json:"index"`
			Activities []struct {
				ID      string          `json:"id"`
				Type    string          `json:"type"`
				Content json.RawMessage `json:"content"`
				Updates int             `json:"updates"`
			} `json:"activities"`
			Subagents []struct {
				RunID            string `json:"run_id"`
				Name             string `json:"name"`
				Status           string `json:"status"`
				ParentRunID      string `json:"parent_run_id"`
				ParentToolCallID string `json:"parent_tool_call_id"`
			} `json:"subagents"`
			ToolCalls []struct {
				Name          string `json:"name"`
				Agent         string `json:"agent"`
				SubagentRunID string `json:"subagent_run_id"`
			} `json:"tool_calls"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	var got []string
	for _, tu := range tr.Turns {
		for _, a := range tu.Activities {
			got = append(got, fmt.Sprintf("turn %d activity %s %s %s (%d updates)", tu.Index, a.Type, a.ID, a.Content, a.Updates))
		}
		for _, s := range tu.Subagents {
			got = append(got, fmt.Sprintf("turn %d subagent %s %s %s (parent run %q, call %q)", tu.Index, s.Name, s.RunID, s.Status, s.ParentRunID, s.ParentToolCallID))
		}
		for _, c := range tu.ToolCalls {
			if c.Agent != "" {
				got = append(got, fmt.Sprintf("turn %d call %s by %s (%s)", tu.Index, c.Name, c.Agent, c.SubagentRunID))
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s keeps\n  %q\nwant\n  %q", path, got, want)
	}
}
