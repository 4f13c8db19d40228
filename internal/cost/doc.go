// Package cost is what an agent's model calls used and cost (docs/cost.md):
// tokens as a source reported them — per provider and model, each count
// known or not — their price, and their sum over runs, turns and tests.
//
// Unknown is never zero. A count the source did not report is unknown, a
// scope none of whose runs reported usage has no Spend at all (nil), and
// a Spend some of whose runs reported nothing is partial: its sums are
// lower bounds, and its cost is unknown.
package cost
