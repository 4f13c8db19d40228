package report

import "github.com/ananke/action/internal/cost"

// Variants is the comparison of a run of the suite against several
// variants (docs/variants.md): a matrix of tests × variants, and a verdict
// per pair. nil when the run had no variants. The tests of each variant
// are Report.Tests with Test.Variant set, their ids qualified
// (VariantID).
type Variants struct {
	// Names are the variants in the config's order, with what each
	// overrides in one line.
	Variants []VariantSummary `json:"variants"`
	// Rows are the tests, one per test of the suite, in the suite's order.
	Rows []ComparisonRow `json:"rows"`
	// Pairs are the verdicts of each pair of variants (a, b) in the
	// config's order, a before b.
	Pairs []PairVerdict `json:"pairs"`
	// Significance is the level a difference of pass rates must reach to
	// be marked (the p-value of Fisher's exact test below it).
	Significance float64 `json:"significance"`
}

// VariantSummary is one variant's run as a whole.
type VariantSummary struct {
	Name string `json:"name"`
	// Overrides says in one line what the variant changes ("endpoint,
	// server.env.MODEL_BEHAVIOUR").
	Overrides string `json:"overrides,omitempty"`
	Totals    Totals `json:"totals"`
	// Usage is what the agent used over the variant's tests; nil when none
	// reported usage.
	Usage *cost.Spend `json:"usage,omitempty"`
	// MedianTurnMs is the median duration of the variant's turns (nil:
	// no turn).
	MedianTurnMs *int64 `json:"median_turn_ms,omitempty"`
	// Error, when set, is why the variant's tests could not run (its
	// agent did not start).
	Error string `json:"error,omitempty"`
}

// ComparisonRow is one test across the variants.
type ComparisonRow struct {
	Test string `json:"test"` // the test's own id, unqualified
	Name string `json:"name"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Cells are the test under each variant, in Variants' order.
	Cells []ComparisonCell `json:"cells"`
	// Differences are the pairs whose pass rates differ significantly for
	// this test.
	Differences []PairDifference `json:"differences"`
}

// ComparisonCell is one test under one variant.
type ComparisonCell struct {
	Variant string `json:"variant"`
	ID      string `json:"id"` // the qualified test id in Report.Tests
	Status  string `json:"status"`
	Runs    int    `json:"runs"`
	Passed  int    `json:"passed"`
	// PassRate is Passed / Runs in percent, Low and High its interval at
	// the report's confidence.
	PassRate float64 `json:"pass_rate"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	// CostUSD is the mean cost per attempt (nil: unknown), Tokens the mean
	// tokens per attempt (nil: unknown).
	CostUSD      *float64 `json:"cost_usd,omitempty"`
	Tokens       *float64 `json:"tokens,omitempty"`
	MedianTurnMs *int64   `json:"median_turn_ms,omitempty"`
}

// PairDifference is a significant difference of one test's pass rates
// between variants A and B: Better is the variant that passes more often.
type PairDifference struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	P      float64 `json:"p"`
	Better string  `json:"better"`
}

// PairVerdict compares two variants over the whole suite.
type PairVerdict struct {
	A string `json:"a"`
	B string `json:"b"`
	// MorePassing is how many more tests pass under B than under A
	// (negative: fewer); Better and Worse list the tests significantly
	// better and worse under B.
	MorePassing int      `json:"more_passing"`
	Better      []string `json:"better"`
	Worse       []string `json:"worse"`
	// CostChangePct is B's cost against A's, in percent (nil: unknown);
	// LatencyChangePct the same of the median turn.
	CostChangePct    *float64 `json:"cost_change_pct,omitempty"`
	LatencyChangePct *float64 `json:"latency_change_pct,omitempty"`
	// Line is the verdict in one line: "b passes 3 more tests, costs 22%
	// less, no test significantly worse".
	Line string `json:"line"`
}

// VariantID is the id of test id under variant name in Report.Tests.
func VariantID(id, variant string) string { return id + "@" + variant }
