package calibrate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Schema is the calibration file's schema name.
const Schema = "ananke.calibration/v1"

// File is a calibration file: the calibrations of each judge identity
// that was calibrated, judges ordered by model then prompt hash, each
// judge's criteria by criterion. A judge identity whose model or prompt
// changed is a new entry: the old one stays, and tells the gate the
// calibration is stale.
type File struct {
	Schema string  `json:"schema"`
	Judges []Judge `json:"judges"`
}

// Judge is one judge identity's calibrations.
type Judge struct {
	Model      string      `json:"model"`
	PromptHash string      `json:"prompt_hash"`
	Criteria   []Criterion `json:"criteria"`
}

// Criterion is the calibration of one criterion under one judge
// identity.
type Criterion struct {
	Criterion  string   `json:"criterion"`
	N          int      `json:"n"`
	Agreements int      `json:"agreements"`
	Accuracy   float64  `json:"accuracy"`
	AccuracyCI Interval `json:"accuracy_ci"`
	// Kappa and KappaCI are null when kappa is undefined: the judge and
	// the people gave one and the same answer to every label.
	Kappa     *float64  `json:"kappa"`
	KappaCI   *Interval `json:"kappa_ci"`
	Confusion Confusion `json:"confusion"`
	// Level is the intervals' confidence level, in percent.
	Level float64 `json:"level"`
	// MadeAt is when the calibration was made; Labels names the labels
	// files it was made from.
	MadeAt time.Time `json:"made_at"`
	Labels []string  `json:"labels"`
}

// Interval is a confidence interval's bounds.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// NewCriterion is the calibration of criterion from its confusion, at
// level (a fraction in (0, 1)), made at madeAt from the labels files
// named. Numbers are rounded to 4 decimals.
func NewCriterion(criterion string, c Confusion, level float64, madeAt time.Time, labelFiles []string) Criterion {
	a := c.Agreement(level)
	out := Criterion{Criterion: criterion, N: a.N, Agreements: a.Agreements, Accuracy: round(a.Accuracy),
		AccuracyCI: Interval{round(a.AccuracyCI.Lo), round(a.AccuracyCI.Hi)}, Confusion: c,
		Level: round(level * 100), MadeAt: madeAt.UTC(), Labels: slices.Clone(labelFiles)}
	slices.Sort(out.Labels)
	out.Labels = slices.Compact(out.Labels)
	if a.Kappa.Defined {
		k := round(a.Kappa.Value)
		out.Kappa, out.KappaCI = &k, &Interval{round(a.KappaCI.Lo), round(a.KappaCI.Hi)}
	}
	if out.Labels == nil {
		out.Labels = []string{}
	}
	return out
}

func round(v float64) float64 {
	r := math.Round(v*1e4) / 1e4
	if r == 0 {
		return 0 // never -0
	}
	return r
}

// Set puts the calibrations of one judge identity in the file, replacing
// those of the same criteria; the others, and other identities', stay.
func (f *File) Set(model, promptHash string, cs ...Criterion) {
	i := slices.IndexFunc(f.Judges, func(j Judge) bool { return j.Model == model && j.PromptHash == promptHash })
	if i < 0 {
		f.Judges = append(f.Judges, Judge{Model: model, PromptHash: promptHash})
		i = len(f.Judges) - 1
	}
	j := &f.Judges[i]
	for _, c := range cs {
		if k := slices.IndexFunc(j.Criteria, func(x Criterion) bool { return x.Criterion == c.Criterion }); k >= 0 {
			j.Criteria[k] = c
		} else {
			j.Criteria = append(j.Criteria, c)
		}
	}
	f.sort()
}

func (f *File) sort() {
	slices.SortFunc(f.Judges, func(a, b Judge) int {
		return cmp.Or(strings.Compare(a.Model, b.Model), strings.Compare(a.PromptHash, b.PromptHash))
	})
	for i := range f.Judges {
		slices.SortFunc(f.Judges[i].Criteria, func(a, b Criterion) int { return strings.Compare(a.Criterion, b.Criterion) })
	}
}

// Find is the calibration of criterion under the judge identity; ok is
// false when there is none.
func (f *File) Find(model, promptHash, criterion string) (Criterion, bool) {
	if f == nil {
		return Criterion{}, false
	}
	for _, j := range f.Judges {
		if j.Model != model || j.PromptHash != promptHash {
			continue
		}
		for _, c := range j.Criteria {
			if c.Criterion == criterion {
				return c, true
			}
		}
	}
	return Criterion{}, false
}

// Write writes f as indented JSON, in its order (judges by model and
// prompt hash, criteria by name): the same calibrations give the same
// bytes. No judges, criteria or labels files are empty lists.
func Write(w io.Writer, f *File) error {
	out := File{Schema: Schema, Judges: slices.Clone(f.Judges)}
	if out.Judges == nil {
		out.Judges = []Judge{}
	}
	for i := range out.Judges {
		j := &out.Judges[i]
		j.Criteria = slices.Clone(j.Criteria)
		if j.Criteria == nil {
			j.Criteria = []Criterion{}
		}
		for k := range j.Criteria {
			if j.Criteria[k].Labels == nil {
				j.Criteria[k].Labels = []string{}
			}
		}
	}
	out.sort()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Read reads a calibration file, strictly: unknown fields, a wrong
// schema, numbers out of range or that disagree with each other, and a
// judge or criterion given twice are errors naming where.
func Read(r io.Reader) (*File, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading the calibration: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a calibration file: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF { // a stray } or ] too, which More takes for the end
		return nil, errors.New("not a calibration file: more than one JSON value")
	}
	if f.Schema != Schema {
		return nil, fmt.Errorf("not a calibration file: schema %q, want %q", f.Schema, Schema)
	}
	var problems []error
	seen := map[[2]string]bool{}
	for i, j := range f.Judges {
		at := fmt.Sprintf("judges[%d]", i)
		if strings.TrimSpace(j.PromptHash) == "" {
			problems = append(problems, fmt.Errorf("%s: no prompt_hash", at))
		}
		if id := [2]string{j.Model, j.PromptHash}; seen[id] {
			problems = append(problems, fmt.Errorf("%s: judge %s with prompt %s is given twice", at, j.Model, j.PromptHash))
		} else {
			seen[id] = true
		}
		crits := map[string]bool{}
		for k, c := range j.Criteria {
			at := fmt.Sprintf("%s.criteria[%d]", at, k)
			if crits[c.Criterion] {
				problems = append(problems, fmt.Errorf("%s: criterion %q is given twice", at, c.Criterion))
			}
			crits[c.Criterion] = true
			if err := c.check(); err != nil {
				problems = append(problems, fmt.Errorf("%s: %w", at, err))
			}
			if c.Labels == nil {
				j.Criteria[k].Labels = []string{}
			}
		}
		if f.Judges[i].Criteria == nil {
			f.Judges[i].Criteria = []Criterion{}
		}
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	if f.Judges == nil {
		f.Judges = []Judge{}
	}
	return &f, nil
}

func (c Criterion) check() error {
	within := func(iv Interval, lo, hi float64) bool { return lo <= iv.Lo && iv.Lo <= iv.Hi && iv.Hi <= hi }
	switch {
	case strings.TrimSpace(c.Criterion) == "":
		return errors.New("no criterion")
	case c.N < 1:
		return fmt.Errorf("n %d: a calibration rests on at least one label", c.N)
	case c.Agreements < 0 || c.Agreements > c.N:
		return fmt.Errorf("agreements %d is not between 0 and n (%d)", c.Agreements, c.N)
	case c.Confusion.N() != c.N || c.Confusion.Agreements() != c.Agreements || min(c.Confusion.JudgeMetHumanMet, c.Confusion.JudgeMetHumanNot, c.Confusion.JudgeNotHumanMet, c.Confusion.JudgeNotHumanNot) < 0:
		return fmt.Errorf("confusion %+v does not add up to n %d and agreements %d", c.Confusion, c.N, c.Agreements)
	case c.Accuracy < 0 || c.Accuracy > 1 || !within(c.AccuracyCI, 0, 1):
		return fmt.Errorf("accuracy %g [%g, %g] is not a proportion with its interval", c.Accuracy, c.AccuracyCI.Lo, c.AccuracyCI.Hi)
	case (c.Kappa == nil) != (c.KappaCI == nil):
		return errors.New("kappa and kappa_ci must be given together, or both null")
	case c.Kappa != nil && (*c.Kappa < -1 || *c.Kappa > 1 || !within(*c.KappaCI, -1, 1)):
		return fmt.Errorf("kappa %g [%g, %g] is not between -1 and 1 with its interval", *c.Kappa, c.KappaCI.Lo, c.KappaCI.Hi)
	case !(c.Level > 0 && c.Level < 100):
		return fmt.Errorf("level %g is not a percentage between 0 and 100", c.Level)
	case c.MadeAt.IsZero():
		return errors.New("no made_at")
	}
	return nil
}
