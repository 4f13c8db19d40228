package reporttest

import (
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
)

// The fixture's quarantine entries (docs/history.md#quarantine): the
// failing checkout test's, with every field, and the glob that quarantines
// the passing weather test and the errored refund test.
var (
	CheckoutQuarantine = &spec.Quarantine{Pos: pos("ananke.config.yaml", 12, 5), Test: "tests/checkout", TestPos: pos("ananke.config.yaml", 12, 11),
		Reason: "the payment sandbox declines at random", Until: "2026-12-31", UntilPos: pos("ananke.config.yaml", 14, 12),
		Owner: "@payments", Issue: "https://github.com/acme/shop/issues/42"}
	GlobQuarantine = &spec.Quarantine{Pos: diag.Pos{File: ".ananke/quarantine.yaml", Line: 2, Col: 5}, Test: "tests/[wr]e*",
		TestPos: pos(".ananke/quarantine.yaml", 2, 11), Reason: "waiting for the v2 agent"}
)

// QuarantineReport builds a report of some of the fixture's tests through
// report.Build, with the checkout test (failing), the weather test (passing
// every attempt: stable in this run) and the refund test (errored)
// quarantined; the others are not.
func QuarantineReport(tests ...int) *report.Report {
	out := Outcome()
	all := out.Tests
	all[Failing].Test.Quarantine = CheckoutQuarantine
	all[Passing].Test.Quarantine = GlobQuarantine
	all[Errored].Test.Quarantine = GlobQuarantine
	out.Tests = nil
	for _, i := range tests {
		out.Tests = append(out.Tests, all[i])
	}
	cfg := Config()
	cfg.Quarantine = []*spec.Quarantine{CheckoutQuarantine, GlobQuarantine}
	return report.Build(out, report.Meta{Version: "v1.2.3", Config: cfg, Parallel: 2})
}
