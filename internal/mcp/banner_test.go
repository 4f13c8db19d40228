//go:build unix

package mcp

import (
	"strings"
	"testing"
	"time"
)

// TestBanner: a real server started by a script that first prints a line
// on stdout — the most common stdio mistake — is reported as that line,
// not as the exit the closed pipe then causes.
func TestBanner(t *testing.T) {
	node, entry := everything(t)
	for _, tc := range []struct{ name, exec string }{
		{"mcp-go", mcpGo(t) + " stdio"},
		{"server-everything", node + " " + entry + " stdio"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := Options{Transport: TransportStdio, Command: []string{"sh", "-c", "echo 'Server started'; exec " + tc.exec},
				Timeout: 2 * time.Minute} // the banner ends the handshake: only a hang meets it
			s, err := Dial(t.Context(), o)
			if err == nil {
				s.Close()
				t.Fatal("Dial succeeded, want an error")
			}
			msg := err.Error()
			want := `mcp: initialize (the server sent something that is not JSON-RPC: "Server started")`
			if !strings.HasPrefix(msg, want) || strings.Contains(msg, "exited") {
				t.Errorf("Dial error %q; want it to start %q, without the exit it caused", msg, want)
			}
		})
	}
}
