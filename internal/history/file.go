package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ananke/action/internal/status"
)

// Schema identifies the history file format (docs/history.md).
const Schema = "ananke.history/v1"

// Bounds of a history file.
const (
	// DefaultMaxBytes bounds a history file Bound writes unless told
	// otherwise: some 20 runs of a suite of several thousand tests.
	DefaultMaxBytes = 8 << 20
	// MaxReadBytes bounds a file ReadFile reads, whatever its writer's
	// bound was.
	MaxReadBytes = 64 << 20
)

// The file's shape: the runs, then per test one character per run for its
// status and, aligned with them, its numbers — a test's row grows by a few
// bytes a run, and its id is written once.
type file struct {
	Schema string     `json:"schema"`
	Runs   []fileRun  `json:"runs"`
	Tests  []fileTest `json:"tests"`
}

type fileRun struct {
	ID        string        `json:"id"`
	Number    int64         `json:"number,omitempty"`
	Commit    string        `json:"commit,omitempty"`
	URL       string        `json:"url,omitempty"`
	StartedAt time.Time     `json:"started_at"`
	Status    status.Status `json:"status"`
}

type fileTest struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Statuses has a character per run: statusChars, upper case when the
	// test was flaky in that run.
	Statuses string `json:"statuses"`
	// Runs and PassedRuns are absent when every entry is its default
	// (defaultRuns, defaultPassed).
	Runs       []int `json:"runs,omitempty"`
	PassedRuns []int `json:"passed_runs,omitempty"`
	// DurationMs is absent when every entry is 0, Tokens and CostUSD when
	// every entry is unknown (null).
	DurationMs []int64    `json:"duration_ms,omitempty"`
	Tokens     []*float64 `json:"tokens,omitempty"`
	CostUSD    []*float64 `json:"cost_usd,omitempty"`
}

// statusChars are the characters of Statuses: the run did not have the
// test, or it passed, failed, errored, was skipped.
var statusChars = map[byte]status.Status{'.': "", 'p': status.Pass, 'f': status.Fail, 'e': status.Error, 's': status.Skipped}

// Char is the character of a result in a status sequence: . p f e s, upper
// case when the test was flaky in the run.
func (r Result) Char() byte {
	var c byte
	switch r.Status {
	case status.Pass:
		c = 'p'
	case status.Fail:
		c = 'f'
	case status.Error:
		c = 'e'
	case status.Skipped:
		return 's'
	default:
		return '.'
	}
	if r.Flaky {
		c -= 'a' - 'A'
	}
	return c
}

// defaultRuns is how many runs a result has when the file does not say:
// one when the test ran.
func defaultRuns(r Result) int {
	if r.Judged() {
		return 1
	}
	return 0
}

// defaultPassed is how many runs passed when the file does not say: one
// when the test passed.
func defaultPassed(r Result) int {
	if r.Status == status.Pass {
		return 1
	}
	return 0
}

// Marshal encodes the history as an ananke.history/v1 file: a line per
// run and per test, so that two versions diff by line.
func Marshal(h *History) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"schema":"` + Schema + `",` + "\n" + `"runs":[`)
	for i, r := range h.Runs {
		line, err := json.Marshal(fileRun(r))
		if err != nil {
			return nil, fmt.Errorf("encode history: run %s: %w", r.ID, err)
		}
		item(&b, i, line)
	}
	b.WriteString("],\n" + `"tests":[`)
	for i := range h.Tests {
		t := &h.Tests[i]
		if len(t.Results) != len(h.Runs) {
			return nil, fmt.Errorf("encode history: test %s has %d results for %d runs", t.ID, len(t.Results), len(h.Runs))
		}
		line, err := json.Marshal(encodeTest(t))
		if err != nil {
			return nil, fmt.Errorf("encode history: test %s: %w", t.ID, err)
		}
		item(&b, i, line)
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// item writes the i-th element of an array on a line of its own.
func item(b *bytes.Buffer, i int, line []byte) {
	if i > 0 {
		b.WriteByte(',')
	}
	b.WriteByte('\n')
	b.Write(line)
}

func encodeTest(t *Test) fileTest {
	n := len(t.Results)
	ft := fileTest{ID: t.ID, Name: t.Name, File: t.File, Line: t.Line}
	chars := make([]byte, n)
	runs, passed, durations := make([]int, n), make([]int, n), make([]int64, n)
	tokens, costs := make([]*float64, n), make([]*float64, n)
	var ownRuns, ownPassed, anyDuration, anyTokens, anyCost bool
	for i, r := range t.Results {
		chars[i] = r.Char()
		runs[i], passed[i], durations[i], tokens[i], costs[i] = r.Runs, r.PassedRuns, r.DurationMs, r.Tokens, r.CostUSD
		ownRuns = ownRuns || r.Runs != defaultRuns(r)
		ownPassed = ownPassed || r.PassedRuns != defaultPassed(r)
		anyDuration = anyDuration || r.DurationMs != 0
		anyTokens = anyTokens || r.Tokens != nil
		anyCost = anyCost || r.CostUSD != nil
	}
	ft.Statuses = string(chars)
	if ownRuns {
		ft.Runs = runs
	}
	if ownPassed {
		ft.PassedRuns = passed
	}
	if anyDuration {
		ft.DurationMs = durations
	}
	if anyTokens {
		ft.Tokens = tokens
	}
	if anyCost {
		ft.CostUSD = costs
	}
	return ft
}

// Parse decodes an ananke.history/v1 file, refusing another schema and a
// file whose parts do not agree (a test's entries that are not one per
// run, an unknown status, negative counts, more passed runs than runs).
func Parse(data []byte) (*History, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("history file: %w", err)
	}
	if f.Schema != Schema {
		return nil, fmt.Errorf("history file has schema %q; this Ananke reads %q", f.Schema, Schema)
	}
	h := &History{Runs: make([]Run, len(f.Runs)), Tests: make([]Test, 0, len(f.Tests))}
	runIDs := make(map[string]bool, len(f.Runs))
	for i, r := range f.Runs {
		if r.ID == "" {
			return nil, fmt.Errorf("history file: run %d has no id", i+1)
		}
		if runIDs[r.ID] {
			return nil, fmt.Errorf("history file: run %q is there twice", r.ID)
		}
		runIDs[r.ID] = true
		if r.Status != status.Pass && !r.Status.Failed() || r.Number < 0 {
			return nil, fmt.Errorf("history file: run %q: status %q is not pass, fail or error, or number %d is negative", r.ID, r.Status, r.Number)
		}
		h.Runs[i] = Run(r)
	}
	ids := make(map[string]bool, len(f.Tests))
	for _, ft := range f.Tests {
		t, err := decodeTest(ft, len(f.Runs))
		if err != nil {
			return nil, fmt.Errorf("history file: test %q: %w", ft.ID, err)
		}
		if ids[t.ID] {
			return nil, fmt.Errorf("history file: test %q is there twice", t.ID)
		}
		ids[t.ID] = true
		h.Tests = append(h.Tests, t)
	}
	h.reindex()
	return h, nil
}

func decodeTest(ft fileTest, n int) (Test, error) {
	switch {
	case ft.ID == "":
		return Test{}, errors.New("no id")
	case ft.Line < 0:
		return Test{}, fmt.Errorf("line %d", ft.Line)
	case len(ft.Statuses) != n:
		return Test{}, fmt.Errorf("statuses has %d entries for %d runs", len(ft.Statuses), n)
	}
	// An empty array is as good as none.
	for name, l := range map[string]int{"runs": len(ft.Runs), "passed_runs": len(ft.PassedRuns), "duration_ms": len(ft.DurationMs), "tokens": len(ft.Tokens), "cost_usd": len(ft.CostUSD)} {
		if l != 0 && l != n {
			return Test{}, fmt.Errorf("%s has %d entries for %d runs", name, l, n)
		}
	}
	t := Test{ID: ft.ID, Name: short(ft.Name), File: short(ft.File), Line: ft.Line, Results: make([]Result, n)}
	present := false
	for i := range n {
		c := ft.Statuses[i]
		flaky := 'A' <= c && c <= 'Z'
		if flaky {
			c += 'a' - 'A'
		}
		s, ok := statusChars[c]
		if !ok || flaky && (c == 's' || c == '.') {
			return Test{}, fmt.Errorf("statuses: %q at run %d is not one of . p f e s P F E", ft.Statuses[i], i+1)
		}
		r := Result{Status: s, Flaky: flaky}
		present = present || r.Present()
		r.Runs, r.PassedRuns = defaultRuns(r), defaultPassed(r)
		if len(ft.Runs) > 0 {
			r.Runs = ft.Runs[i]
		}
		if len(ft.PassedRuns) > 0 {
			r.PassedRuns = ft.PassedRuns[i]
		}
		if len(ft.DurationMs) > 0 {
			r.DurationMs = ft.DurationMs[i]
		}
		if len(ft.Tokens) > 0 {
			r.Tokens = ft.Tokens[i]
		}
		if len(ft.CostUSD) > 0 {
			r.CostUSD = ft.CostUSD[i]
		}
		if r.Runs < 0 || r.PassedRuns < 0 || r.PassedRuns > r.Runs || r.DurationMs < 0 || negative(r.Tokens) || negative(r.CostUSD) {
			return Test{}, fmt.Errorf("run %d: a negative count, or more passed runs than runs", i+1)
		}
		t.Results[i] = r
	}
	if !present {
		return Test{}, errors.New("no run has it")
	}
	return t, nil
}

func negative(f *float64) bool { return f != nil && *f < 0 }

// ReadFile reads a history file of at most MaxReadBytes.
func ReadFile(path string) (*History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	defer f.Close()
	data, err := readAtMost(f, MaxReadBytes)
	if err != nil {
		return nil, fmt.Errorf("read history %s: %w", path, err)
	}
	h, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("read history %s: %w", path, err)
	}
	return h, nil
}

// ErrTooLarge is wrapped by Bound's error when even the newest run alone
// is over the bound.
var ErrTooLarge = errors.New("history too large")

// Bound keeps the newest keep runs and then drops the oldest until the
// encoded history is at most maxBytes (DefaultMaxBytes when 0), and
// returns the encoding. When the newest run alone is over maxBytes the
// history keeps it and the error wraps ErrTooLarge.
func Bound(h *History, keep int, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	h.Trim(keep)
	for {
		data, err := Marshal(h)
		if err != nil || int64(len(data)) <= maxBytes {
			return data, err
		}
		if len(h.Runs) <= 1 {
			return nil, fmt.Errorf("%w: the newest run alone is %d bytes, over the bound of %d", ErrTooLarge, len(data), maxBytes)
		}
		// Drop runs in proportion to the excess, at least one.
		over := float64(len(data)-int(maxBytes)) / float64(len(data))
		h.Trim(len(h.Runs) - max(1, int(over*float64(len(h.Runs)))))
	}
}

// WriteFile writes data to path through a temporary file renamed into
// place, so that a reader never sees half a history.
func WriteFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := os.Chmod(f.Name(), 0o644); err != nil && werr == nil {
		werr = err
	}
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write history %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write history %s: %w", path, err)
	}
	return nil
}

// sortRuns orders runs oldest first: by start, then number, then id.
func sortRuns(runs []Run) {
	slices.SortStableFunc(runs, func(a, b Run) int {
		if c := a.StartedAt.Compare(b.StartedAt); c != 0 {
			return c
		}
		if a.Number != b.Number {
			if a.Number < b.Number {
				return -1
			}
			return 1
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
}
