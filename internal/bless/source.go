package bless

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ananke/action/internal/source"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// From is what a conversation to bless is read from.
type From string

// The inputs bless reads.
const (
	// FromRecording is a recording directory (ananke run --record).
	FromRecording From = "recording"
	// FromReport is a report directory (summary.json and its traces).
	FromReport From = "report"
	// FromTranscript is a Claude Code or Agent SDK transcript, or a
	// folder of them.
	FromTranscript From = "transcript"
	// FromNanoClaw is a NanoClaw folder (a group's session or task).
	FromNanoClaw From = "nanoclaw"
)

// Froms lists the inputs, as --from names them.
var Froms = []From{FromRecording, FromReport, FromTranscript, FromNanoClaw}

// Files that tell the inputs apart.
const (
	recordingIndex = "index.json"
	reportSummary  = "summary.json"
)

// Detect says what path is: a directory holding index.json is a
// recording, one holding summary.json a report, a NanoClaw folder
// (data/v2.db, store/messages.db or groups/) NanoClaw's; a .jsonl file, or
// a folder of them, transcripts.
func Detect(path string) (From, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s: no such file or directory", path)
		}
		return "", err
	}
	if !st.IsDir() {
		if strings.HasSuffix(path, ".jsonl") {
			return FromTranscript, nil
		}
		return "", fmt.Errorf("%s is not a recording, a report directory or a transcript (a .jsonl file); name the directory, or say what it is with --from", path)
	}
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(path, name))
		return err == nil
	}
	switch {
	case has(recordingIndex):
		return FromRecording, nil
	case has(reportSummary):
		return FromReport, nil
	case has(filepath.Join("data", "v2.db")), has(filepath.Join("store", "messages.db")), has("groups"):
		return FromNanoClaw, nil
	}
	if sessions, _ := filepath.Glob(filepath.Join(path, "*.jsonl")); len(sessions) > 0 {
		return FromTranscript, nil
	}
	return "", fmt.Errorf("%s holds no %s (a recording), no %s (a report), no transcripts (*.jsonl) and is no NanoClaw folder; say what it is with --from", path, recordingIndex, reportSummary)
}

// Transcripts reads the sessions of a Claude transcript path: the file,
// or each *.jsonl of the folder, a conversation each.
func Transcripts(ctx context.Context, path string) ([]*Conversation, error) {
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.jsonl"))
		slices.Sort(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("%s holds no transcripts (*.jsonl)", path)
		}
	}
	var out []*Conversation
	for _, f := range files {
		src := &Source{Format: spec.FormatClaude, Path: f}
		c, err := imported(ctx, src, "session "+strings.TrimSuffix(filepath.Base(f), ".jsonl"), "the transcript "+filepath.ToSlash(f))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if len(out) > 1 {
		OfferEachOther(out, "other sessions called it")
	}
	return out, nil
}

// NanoClaw reads a NanoClaw group's session, or the run of one of its
// scheduled tasks.
func NanoClaw(ctx context.Context, path, group, session, task string) (*Conversation, error) {
	if group == "" {
		return nil, fmt.Errorf("a NanoClaw folder needs --group: the group whose session to bless")
	}
	name := "the " + group + " group's session"
	if task != "" {
		name = "the " + group + " group's task " + task
	}
	src := &Source{Format: spec.FormatNanoClaw, Path: path, Group: group, Session: session, Task: task}
	return imported(ctx, src, name, "the NanoClaw folder "+filepath.ToSlash(path)+" (group "+group+")")
}

// imported reads the trace src names into a conversation.
func imported(ctx context.Context, src *Source, name, from string) (*Conversation, error) {
	abs, err := filepath.Abs(src.Path)
	if err != nil {
		return nil, err
	}
	tr, err := source.Load(ctx, &spec.Source{Format: src.Format, Path: filepath.ToSlash(src.Path), Abs: abs, Group: src.Group, Session: src.Session, Task: src.Task})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", src.Path, err)
	}
	return &Conversation{Name: name, Source: src, Traces: []*trace.Trace{tr}, From: from}, nil
}
