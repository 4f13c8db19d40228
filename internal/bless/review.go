package bless

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/ananke/action/internal/plural"
)

// Reviewer asks a person, check by check, which inferred checks to keep
// (ananke bless on a terminal): Enter or y keeps one, n drops it, q drops
// it and every check after it, in this file and the next, as git add -p's
// q does. The end of the input is a q.
type Reviewer struct {
	in   *bufio.Reader
	out  io.Writer
	quit bool
}

// NewReviewer asks on out and reads the answers from in.
func NewReviewer(in io.Reader, out io.Writer) *Reviewer {
	return &Reviewer{in: bufio.NewReader(in), out: out}
}

// Review shows each check of file and returns those kept.
func (r *Reviewer) Review(file string, checks []Check) []Check {
	if r.quit || len(checks) == 0 {
		return nil
	}
	fmt.Fprintf(r.out, "%s: %s inferred\n", file, plural.Count(len(checks), "check"))
	var kept []Check
	for i, c := range checks {
		fmt.Fprintf(r.out, "  [%d/%d] %s: %s\n        inferred: %s\n", i+1, len(checks), c.Where(), c.Show(), c.Why)
		switch r.ask() {
		case 'y':
			kept = append(kept, c)
		case 'q':
			r.quit = true
			return kept
		}
	}
	return kept
}

// Quit reports whether the person answered q (or the input ended).
func (r *Reviewer) Quit() bool { return r.quit }

// ask asks until the answer is y (or nothing), n or q.
func (r *Reviewer) ask() byte {
	for {
		fmt.Fprint(r.out, "  keep? [Y/n/q] ")
		line, err := r.in.ReadString('\n')
		answer := strings.ToLower(strings.TrimSpace(line))
		switch {
		case answer == "" && err != nil: // the input ended
			fmt.Fprintln(r.out)
			return 'q'
		case answer == "" || answer == "y" || answer == "yes":
			return 'y'
		case answer == "n" || answer == "no":
			return 'n'
		case answer == "q" || answer == "quit":
			return 'q'
		}
		fmt.Fprintln(r.out, "  answer y (keep it), n (drop it) or q (drop it and the rest)")
	}
}
