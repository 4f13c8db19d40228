package bless

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, files ...string) string {
		p := filepath.Join(dir, name)
		for _, f := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(p, f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(p, f), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.MkdirAll(p, 0o755)
		return p
	}
	for _, c := range []struct {
		path string
		want From
		err  string
	}{
		{mk("rec", "index.json", "tests/a.json"), FromRecording, ""},
		{mk("report", "summary.json", "index.html"), FromReport, ""},
		{mk("nc2", "data/v2.db"), FromNanoClaw, ""},
		{mk("nc1", "store/messages.db"), FromNanoClaw, ""},
		{mk("sessions", "a.jsonl", "b.jsonl"), FromTranscript, ""},
		{filepath.Join(mk("one", "s.jsonl"), "s.jsonl"), FromTranscript, ""},
		{mk("empty"), "", "holds no index.json (a recording), no summary.json (a report), no transcripts"},
		{filepath.Join(mk("file", "x.yaml"), "x.yaml"), "", "is not a recording, a report directory or a transcript"},
		{filepath.Join(dir, "missing"), "", "no such file or directory"},
	} {
		got, err := Detect(c.path)
		if got != c.want || (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Detect(%s) = %q, %v; want %q, %q", filepath.Base(c.path), got, err, c.want, c.err)
		}
	}
}

// TestTranscripts reads a folder of Claude Code sessions: one
// conversation each, named by session, each offered the tools the other
// called.
func TestTranscripts(t *testing.T) {
	dir := filepath.Join("..", "source", "claude", "testdata", "projects", "-home-dev-shop")
	convs, err := Transcripts(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 2 {
		t.Fatalf("%d conversations, want 2", len(convs))
	}
	for _, c := range convs {
		if c.Source == nil || c.Source.Format != "claude-transcript" || !strings.HasPrefix(c.Name, "session ") || len(c.Traces) != 1 || len(c.Called()) == 0 {
			t.Errorf("conversation %+v", c)
		}
		if !strings.HasPrefix(c.OutName(), strings.TrimPrefix(c.Name, "session ")) {
			t.Errorf("out name %q for %q", c.OutName(), c.Name)
		}
	}
	if _, err := Transcripts(t.Context(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no transcripts") {
		t.Errorf("an empty folder: %v", err)
	}
	if _, err := NanoClaw(t.Context(), "nanoclaw", "", "", ""); err == nil || !strings.Contains(err.Error(), "needs --group") {
		t.Errorf("no group: %v", err)
	}
}
