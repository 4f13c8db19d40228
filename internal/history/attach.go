package history

import (
	"math"

	"github.com/ananke/action/internal/report"
)

// Attach reads each test of r against the history h of the base branch
// named base: its recent results (a trend for reports) and, for a test
// that failed or errored, the history's verdict (Blame), a failure
// counting as new at significance alpha. Reports then render what Attach
// wrote; they decide nothing. A nil or empty h attaches nothing.
func Attach(r *report.Report, h *History, base string, alpha float64) {
	if h == nil || len(h.Runs) == 0 {
		return
	}
	r.History = &report.History{Base: base, Runs: len(h.Runs), Alpha: alpha}
	for i := range r.Tests {
		t := &r.Tests[i]
		th := &report.TestHistory{Sequence: ".", DurationsMs: []int64{}}
		if ht := h.Test(t.ID); ht != nil {
			f := h.facts(ht, 0.95)
			th.Sequence, th.Judged, th.Failed, th.Flaky = f.Sequence, f.Judged, f.Failed, f.Flaky
			th.FlakeRate = math.Round(f.FlakeRate*1000) / 10
			known := false
			for _, res := range ht.Results {
				d := int64(0)
				if res.Judged() {
					d = res.DurationMs
				}
				th.DurationsMs = append(th.DurationsMs, d)
				th.Tokens = append(th.Tokens, res.Tokens)
				th.CostUSD = append(th.CostUSD, res.CostUSD)
				known = known || res.Tokens != nil || res.CostUSD != nil
			}
			if !known {
				th.Tokens, th.CostUSD = nil, nil
			}
		} else {
			th.Sequence = ""
			for range h.Runs {
				th.Sequence += "."
				th.DurationsMs = append(th.DurationsMs, 0)
			}
		}
		if t.Status.Failed() {
			v := Blame(t, h)
			p := v.P
			th.Blame, th.Says, th.New, th.P = string(v.Kind), v.Say(base), v.New(alpha), &p
		}
		t.History = th
	}
}
