package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ananke/action/internal/selection"
	"github.com/ananke/action/internal/spec"
)

// durationFlag is a time.Duration flag that must not be negative.
type durationFlag struct{ time.Duration }

func (d *durationFlag) String() string {
	if d.Duration == 0 {
		return ""
	}
	return d.Duration.String()
}

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("want a duration such as 90s or 2m")
	}
	d.Duration = v
	return nil
}

// numberFlag is a whole-number flag with a default: unlike flag.Int's, its
// error says what it wants.
type numberFlag int

func (f *numberFlag) String() string { return strconv.Itoa(int(*f)) }

func (f *numberFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a whole number")
	}
	*f = numberFlag(v)
	return nil
}

// intFlag is an optional whole-number flag within [lo, hi]; set tells an
// explicit value from the default, so that a test file's or the config's
// value applies when the flag is not given.
type intFlag struct {
	v, lo, hi int
	set       bool
}

func (f *intFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.Itoa(f.v)
}

func (f *intFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < f.lo || v > f.hi {
		return fmt.Errorf("want a whole number from %d to %d", f.lo, f.hi)
	}
	f.v, f.set = v, true
	return nil
}

// percentFlag is an optional percentage from 0 to 100.
type percentFlag struct {
	v   float64
	set bool
}

func (f *percentFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatFloat(f.v, 'f', -1, 64)
}

func (f *percentFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || v < 0 || v > 100 || v != v {
		return fmt.Errorf("want a percentage from 0 to 100")
	}
	f.v, f.set = v, true
	return nil
}

// listFlag collects every value of a repeatable flag.
type listFlag []string

func (f *listFlag) String() string { return strings.Join(*f, ",") }

func (f *listFlag) Set(s string) error {
	*f = append(*f, s)
	return nil
}

// shardFlag is --shard i/n; nil until set.
type shardFlag struct{ shard *selection.Shard }

func (f *shardFlag) String() string {
	if f == nil || f.shard == nil {
		return ""
	}
	return f.shard.String()
}

func (f *shardFlag) Set(s string) error {
	sh, err := selection.ParseShard(s)
	if err != nil {
		return err
	}
	f.shard = &sh
	return nil
}

// runsFlag is --runs: N, a fixed number of runs, or MIN..MAX, adaptive
// runs (docs/runs.md); each from 1 to spec.MaxRuns. Unset, the test files
// and the config decide.
type runsFlag struct {
	n   int
	rng *spec.RunRange
	set bool
}

func (f *runsFlag) String() string {
	switch {
	case f == nil || !f.set:
		return ""
	case f.rng != nil:
		return fmt.Sprintf("%d..%d", f.rng.Min, f.rng.Max)
	}
	return strconv.Itoa(f.n)
}

func (f *runsFlag) Set(s string) error {
	lo, hi, ranged := strings.Cut(s, "..")
	if !ranged {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > spec.MaxRuns {
			return fmt.Errorf("want a whole number from 1 to %d", spec.MaxRuns)
		}
		f.n, f.rng, f.set = v, nil, true
		return nil
	}
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || a < 1 || b < a || b > spec.MaxRuns {
		return fmt.Errorf("want MIN..MAX with 1 <= MIN <= MAX <= %d, e.g. 3..30", spec.MaxRuns)
	}
	f.n, f.rng, f.set = 0, &spec.RunRange{Min: a, Max: b}, true
	return nil
}

// level is the command line's runs setting.
func (f *runsFlag) level(s *spec.Stability) {
	if f.set {
		s.Runs, s.Adaptive = f.n, f.rng
	}
}
