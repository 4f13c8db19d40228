package spec

import "github.com/ananke/action/internal/diag"

// Variant is one entry of the config's variants: the suite run against
// another agent, model or prompt (docs/variants.md).
type Variant struct {
	Pos  diag.Pos
	Name string
	// Target is the config's target with the variant's target: mapping
	// merged over it, read and checked as the target itself is.
	Target *Target
	// Overrides are the keys the variant sets, as paths ("endpoint",
	// "server.env.MODEL_BEHAVIOUR", "gateway.model"), for reports.
	Overrides []string
	// GatewayModel, when set, is the model the gateway asks its upstream
	// for, in place of the one each request names.
	GatewayModel string
	// Stability overrides the config's runs, min_pass_rate and retries
	// for this variant (a test file's still win).
	Stability Stability
}
