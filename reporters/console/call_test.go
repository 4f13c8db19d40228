package console

import (
	"testing"

	"github.com/ananke/action/internal/report"
)

// TestCallLine: a call's line says when its result was an error, and
// which subagent made it.
func TestCallLine(t *testing.T) {
	res := "Exit code 1"
	for _, c := range []struct {
		call report.Call
		want string
	}{
		{report.Call{ID: "toolu_01abcdefghijkl", Name: "Bash", Args: `{"command":"go test"}`, Result: &res, AtMs: 40},
			`Bash {"command":"go test"} → Exit code 1  (call …abcdefghijkl, +40ms)`},
		{report.Call{ID: "toolu_01abcdefghijkl", Name: "Bash", Args: `{"command":"go test"}`, Result: &res, IsError: true, Agent: "a7c21f9", AtMs: 40},
			`Bash {"command":"go test"} → error: Exit code 1  (call …abcdefghijkl, by subagent a7c21f9, +40ms)`},
		{report.Call{ID: "c1", Name: "pick", Args: `{}`, Client: true},
			`pick {} → (no result)  (call c1 answered by Ananke, +0ms)`},
	} {
		if got := callLine(&c.call); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
