// Package labels reads and writes human labels of judge verdicts: the file
// a reviewer downloads from index.html after marking each criterion's
// verdict agree or disagree, and that `ananke judge calibrate` reads
// (docs/judges.md). A label is keyed by the test, the attempt, the judge
// assertion, the criterion, and the judge's model and prompt hash.
package labels

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Schema is the labels file's schema name.
const Schema = "ananke.labels/v1"

// What a reviewer says of a verdict.
const (
	Agree    = "agree"
	Disagree = "disagree"
)

// File is a labels file.
type File struct {
	Schema string `json:"schema"`
	// Run names the run the labels were made on: its start time as
	// summary.json gives it, for messages.
	Run    string  `json:"run,omitempty"`
	Labels []Label `json:"labels"`
}

// Label is one reviewer's word on one criterion's verdict.
type Label struct {
	// Test is the test's id; Attempt counts from 1 when the test ran more
	// than once (its attempts' traces are apart), 0 otherwise.
	Test    string `json:"test"`
	Attempt int    `json:"attempt,omitempty"`
	// Assertion is the judge assertion's id ("turn[0].judge"), Scope its
	// scope ("turn[0]" or "test").
	Assertion string `json:"assertion"`
	Scope     string `json:"scope"`
	Criterion string `json:"criterion"`
	// JudgeModel and PromptHash are the judge's identity when it gave
	// Verdict.
	JudgeModel string `json:"judge_model"`
	PromptHash string `json:"prompt_hash"`
	// Verdict is what the judge said: "true", "false" or "inconclusive".
	Verdict string `json:"verdict"`
	// Label is Agree or Disagree.
	Label string `json:"label"`
	Note  string `json:"note,omitempty"`
}

// Met is the reviewer's answer to the criterion: whether it holds. An
// agreed verdict is the answer; a disagreed "true" means it does not hold,
// and a disagreed "false" or "inconclusive" means it does.
func (l Label) Met() bool {
	if l.Label == Agree {
		return l.Verdict == "true"
	}
	return l.Verdict != "true"
}

// Key identifies what a label is about, whoever judged it.
func (l Label) Key() string {
	return fmt.Sprintf("%s\x00%d\x00%s\x00%s", l.Test, l.Attempt, l.Assertion, l.Criterion)
}

// Read reads a labels file, strictly: unknown fields, a wrong schema and
// labels missing what identifies them are errors naming the label.
func Read(r io.Reader) (*File, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading labels: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a labels file: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF { // a stray } or ] too, which More takes for the end
		return nil, errors.New("not a labels file: more than one JSON value")
	}
	if f.Schema != Schema {
		return nil, fmt.Errorf("not a labels file: schema %q, want %q", f.Schema, Schema)
	}
	var problems []error
	for i, l := range f.Labels {
		if err := l.check(); err != nil {
			problems = append(problems, fmt.Errorf("labels[%d]: %w", i, err))
		}
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	if f.Labels == nil {
		f.Labels = []Label{}
	}
	return &f, nil
}

func (l Label) check() error {
	var missing []string
	for _, f := range []struct{ name, v string }{{"test", l.Test}, {"assertion", l.Assertion}, {"scope", l.Scope}, {"criterion", l.Criterion}, {"prompt_hash", l.PromptHash}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	switch {
	case len(missing) > 0:
		return fmt.Errorf("no %s", strings.Join(missing, ", "))
	case l.Attempt < 0:
		return fmt.Errorf("attempt %d is negative", l.Attempt)
	case l.Verdict != "true" && l.Verdict != "false" && l.Verdict != "inconclusive":
		return fmt.Errorf("verdict %q is not true, false or inconclusive", l.Verdict)
	case l.Label != Agree && l.Label != Disagree:
		return fmt.Errorf("label %q is not %s or %s", l.Label, Agree, Disagree)
	}
	return nil
}

// Write writes f as indented JSON; no labels are an empty list.
func Write(w io.Writer, f *File) error {
	if f.Schema == "" {
		f.Schema = Schema
	}
	out := *f
	if out.Labels == nil {
		out.Labels = []Label{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
