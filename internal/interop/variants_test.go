//go:build unix

package interop

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/interop/peer"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/reportdir"
)

// variantsSuite is the suite of the Mastra agent's variants, relative to
// testdata/interop: hasty and careful differ by the server's
// MASTRA_BEHAVIOUR, broken's server cannot start.
const variantsSuite = "mastra-variants"

// variantNames are the suite's variants in its config's order.
var variantNames = []string{"hasty", "careful", "broken"}

// wantCell is one test under one good variant: its status, passes out of
// its 5 runs, and its mean tokens per attempt (the scripted model reports
// 15 tokens a step).
type wantCell struct {
	status status.Status
	passed int
	tokens float64
}

// wantCells are the good variants' cells by test, then variant: only the
// weather test differs (hasty answers it without the tool, in one step).
var wantCells = map[string]map[string]wantCell{
	"weather": {"hasty": {status.Fail, 0, 15}, "careful": {status.Pass, 5, 30}},
	"order":   {"hasty": {status.Pass, 5, 45}, "careful": {status.Pass, 5, 45}},
	"name":    {"hasty": {status.Pass, 5, 15}, "careful": {status.Pass, 5, 15}},
}

// variantsPerRun is how many runs each good variant gives a test (the
// variants' runs: 5).
const variantsPerRun = 5

// TestVariantsMastra runs the suite against every variant of the real
// Mastra agent, each started by target.server: the matrix marks the one
// test whose pass rates differ (5/5 against 0/5, p = 2/252) with the
// better variant and no other, each cell has its runs, passes, tokens,
// cost and latency from the streams, the pair verdict speaks for the
// better variant, the broken variant's tests all error with the server's
// reason while the others run, and the markdown summary holds the matrix.
// Two runs of one variant each, merged, give the same comparison.
func TestVariantsMastra(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	peer.Node(t, filepath.Join("@ag-ui", "mastra"))
	bin := filepath.Join(t.TempDir(), "ananke")
	build := exec.Command("go", "build", "-o", bin, root)
	build.Dir = root
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	v := variantsRun{bin: bin, suite: filepath.Join(peer.Dir(), variantsSuite), port: freePort(t)}

	reports := t.TempDir()
	md := filepath.Join(t.TempDir(), "summary.md")
	exit, out := v.run(t, "run", "--variants", "all", "--report-dir", reports, "--summary", md)
	defer logOnFailure(t, out)
	if exit != 1 {
		t.Errorf("exit %d, want 1: weather fails under hasty and broken's tests error", exit)
	}
	validateReports(t, reports)
	r := readVariantsReport(t, reports)
	checkVariantTests(t, r, variantNames)
	cmp := checkComparison(t, r, variantNames)
	if cmp == nil {
		return
	}
	checkOverrides(t, cmp)
	pair := findPair(t, cmp, "hasty", "careful")
	if pair != nil && !strings.Contains(out, pair.Line) {
		t.Errorf("the console does not show the verdict %q", pair.Line)
	}
	checkMarkdown(t, md, cmp)

	t.Run("merge", func(t *testing.T) { v.merge(t, cmp) })
}

// variantsRun runs the binary on the variants suite, its agents on port.
type variantsRun struct {
	bin, suite string
	port       int
}

func (v variantsRun) run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	if args[0] == "run" {
		args = append(append(args, "--config", filepath.Join(v.suite, "ananke.config.yaml")), v.suite)
	}
	cmd := exec.CommandContext(ctx, v.bin, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "VARIANTS_PORT="+strconv.Itoa(v.port))
	out, exit := combined(t, cmd)
	return exit, out
}

// merge: hasty and careful run apart, one --variant each, then merged,
// compare as they do in one run: the same cells (but their latency), the
// same marked difference, the same pair verdict.
func (v variantsRun) merge(t *testing.T, whole *report.Variants) {
	var dirs []string
	for _, name := range []string{"hasty", "careful"} {
		dir := t.TempDir()
		exit, out := v.run(t, "run", "--variant", name, "--report-dir", dir)
		want := 0 // careful passes every test
		if name == "hasty" {
			want = 1
		}
		if exit != want {
			t.Errorf("--variant %s: exit %d, want %d\n%s", name, exit, want, out)
		}
		dirs = append(dirs, dir)
	}
	merged := t.TempDir()
	exit, out := v.run(t, append([]string{"merge", "--report-dir", merged}, dirs...)...)
	defer logOnFailure(t, out)
	if exit != 1 {
		t.Errorf("merge: exit %d, want 1 (the merged run's: weather fails under hasty)", exit)
	}
	r := readVariantsReport(t, merged)
	names := []string{"hasty", "careful"}
	checkVariantTests(t, r, names)
	cmp := checkComparison(t, r, names)
	if cmp == nil {
		return
	}
	for _, row := range cmp.Rows {
		i := slices.IndexFunc(whole.Rows, func(w report.ComparisonRow) bool { return w.Test == row.Test })
		if i < 0 {
			t.Errorf("merged row %s is not in the run of all variants", row.Test)
			continue
		}
		got, want := sameCells(row), sameCells(whole.Rows[i])
		if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
			t.Errorf("merged %s: cells %v, want those of %v", row.Test, got, want)
		}
		if !slices.Equal(row.Differences, whole.Rows[i].Differences) {
			t.Errorf("merged %s: differences %+v, want %+v", row.Test, row.Differences, whole.Rows[i].Differences)
		}
	}
	got, want := findPair(t, cmp, "hasty", "careful"), findPair(t, whole, "hasty", "careful")
	if got != nil && want != nil && (got.MorePassing != want.MorePassing || !slices.Equal(got.Better, want.Better) ||
		!slices.Equal(got.Worse, want.Worse) || !samePct(got.CostChangePct, want.CostChangePct)) {
		t.Errorf("merged verdict %+v, want %+v", *got, *want)
	}
}

// sameCell is what a cell keeps from one run to another of the same
// scripted agent: all but its latency.
type sameCell struct {
	variant, status   string
	runs, passed      int
	rate, low, high   float64
	tokens, costMicro int64
}

// sameCells are the row's cells as sameCell, the good variants' first.
func sameCells(row report.ComparisonRow) []sameCell {
	var out []sameCell
	for _, c := range row.Cells {
		s := sameCell{variant: c.Variant, status: c.Status, runs: c.Runs, passed: c.Passed, rate: c.PassRate, low: c.Low, high: c.High}
		if c.Tokens != nil {
			s.tokens = int64(math.Round(*c.Tokens))
		}
		if c.CostUSD != nil {
			s.costMicro = int64(math.Round(*c.CostUSD * 1e6))
		}
		out = append(out, s)
	}
	return out
}

func samePct(a, b *float64) bool {
	return (a == nil) == (b == nil) && (a == nil || math.Abs(*a-*b) < 1e-9)
}

func readVariantsReport(t *testing.T, dir string) *report.Report {
	t.Helper()
	r, err := reportdir.ReadSummary(dir)
	if err != nil {
		t.Fatalf("read summary: %v", err)
	}
	return r
}
