package engine

import "github.com/ananke/action/internal/trace"

// price prices what a complete turn's runs and the turn itself reported
// (Options.Prices): each model's tokens at its price, unknown without
// one, and a cost the source reported kept as reported.
func (e *engine) price(t *trace.Turn) {
	if e.opts.Prices == nil || t == nil {
		return
	}
	for i := range t.Runs {
		e.opts.Prices.Apply(t.Runs[i].Usage)
	}
	e.opts.Prices.Apply(t.Usage)
}

// priceTrace prices every turn of a trace read whole (an imported one).
func (e *engine) priceTrace(tr *trace.Trace) {
	for i := range tr.Turns {
		e.price(&tr.Turns[i])
	}
}
