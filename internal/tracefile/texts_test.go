package tracefile_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/tracefile"
)

// TestTextsRoundTrip: a turn whose events are not AG-UI's (an imported, A2A
// or MCP trace) keeps its assistant texts in the trace file and reads them
// back; an AG-UI turn's text stays in its events alone.
func TestTextsRoundTrip(t *testing.T) {
	for _, c := range []struct {
		adapter string // "" for an AG-UI run without a source
		texts   []string
		written bool
	}{
		{"claude-transcript", []string{"I'll look.", "Fixed."}, true},
		{"nanoclaw", []string{"Reminder sent."}, true},
		{"a2a", []string{"10 EUR = 11.70 USD"}, true},
		{"mcp", []string{}, true},
		{"ag-ui", []string{"Hello!"}, false},
		{"", []string{"Hello!"}, false},
	} {
		t.Run(c.adapter, func(t *testing.T) {
			tr := &trace.Trace{Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: "hi", UserSeq: 1, Texts: c.texts,
				Events: []trace.Event{{Seq: 1, Type: "user", Raw: []byte(`{"type":"user"}`)}}}}}
			if c.adapter != "" {
				tr.Source = &trace.Source{Adapter: c.adapter, Mode: "import"}
			}
			tt := &report.Test{ID: "t", Attempts: []report.Attempt{{Trace: tr}}}
			var b bytes.Buffer
			if err := tracefile.Write(&b, tt, &tt.Attempts[0]); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), `"texts":`); got != c.written {
				t.Fatalf("texts written: %v, want %v\n%s", got, c.written, b.String())
			}
			back, err := tracefile.Read(&b)
			if err != nil {
				t.Fatal(err)
			}
			turn := back.Turns[0]
			if turn.UserSeq != 1 {
				t.Errorf("user_seq %d, want 1", turn.UserSeq)
			}
			if c.written && (turn.Texts == nil || !slices.Equal(turn.Texts, c.texts)) {
				t.Errorf("texts read back %q, want %q", turn.Texts, c.texts)
			}
			if !c.written && turn.Texts != nil {
				t.Errorf("texts read back %q, want none (the events hold them)", turn.Texts)
			}
		})
	}
}
