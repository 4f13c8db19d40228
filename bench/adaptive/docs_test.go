package main

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDocsTable: the simulated table in docs/statistics.md is the
// defaults' — each row's right verdict is the rule's, and each number is
// within five standard errors (of 20,000 trials) of the exact value, plus
// rounding and, for rare events, a few trials — so the page cannot keep a
// table the code no longer gives. go run ./bench/adaptive prints it anew.
func TestDocsTable(t *testing.T) {
	const trials = 20000
	doc, err := os.ReadFile("../../docs/statistics.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for line := range strings.SplitSeq(string(doc), "\n") {
		f := strings.Split(strings.Trim(line, "| "), " | ")
		if len(f) != 10 || !strings.HasSuffix(f[0], "%") || !strings.HasSuffix(f[1], "%") {
			continue
		}
		th, rate := atoi(t, strings.TrimSuffix(f[0], "%")), atoi(t, strings.TrimSuffix(f[1], "%"))
		c := exact(defaultRule, th, rate)
		rows++
		if f[2] != c.Should {
			t.Errorf("%s: right verdict %q, the rule's %q", line, f[2], c.Should)
		}
		if runs := atof(t, f[3]); math.Abs(runs-c.Runs) > 5*float64(defaultRule.Max)/2/math.Sqrt(trials)+0.05 {
			t.Errorf("%s: %v runs, exactly %.2f", line, runs, c.Runs)
		}
		wa, _ := c.wrong(c.PassA)
		ws, _ := c.settledWrong()
		wf, _ := c.wrong(c.PassF)
		for i, want := range []float64{c.Inconclusive, wa, ws, wf, c.offSide(c.PassA), c.offSide(c.PassF)} {
			cell := f[4+i]
			if cell == "—" {
				if c.Should != shouldEither {
					t.Errorf("%s: no wrong-verdict rate outside the zone", line)
				}
				continue
			}
			got := atof(t, strings.TrimSuffix(cell, "%")) / 100
			// Rare events get a few trials of slack: their normal
			// approximation understates the error.
			if se := math.Sqrt(want * (1 - want) / trials); math.Abs(got-want) > 5*se+3.0/trials+0.00005 {
				t.Errorf("%s: column %d is %v, exactly %.4f", line, 5+i, got, want)
			}
		}
	}
	if want := 30; rows != want {
		t.Errorf("docs/statistics.md has %d rows of the simulated table, want %d", rows, want)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
