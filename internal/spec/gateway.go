package spec

import (
	"github.com/ananke/action/internal/decode"
	gwdecl "github.com/ananke/action/internal/gateway/decl"
)

// The config's gateway: and a test's gateway: (docs/gateway.md) are read
// by internal/gateway; a test's faults are checked against its turns
// here.

// configGateway reads the config's gateway:.
func (l *loader) configGateway(f map[string]decode.Pair, c *Config) {
	if p, ok := f["gateway"]; ok {
		c.Gateway = gwdecl.ReadConfig(l.Decoder, p.Val)
	}
}

// testGateway reads a test's gateway: once its turns, simulator and
// source are read. A fault's turn must be one of the scripted turns,
// unless simulated turns follow them.
func (l *loader) testGateway(f map[string]decode.Pair, t *Test) {
	p, ok := f["gateway"]
	if !ok {
		return
	}
	if t.Source != nil {
		l.Errorf(l.DerefQuiet(p.Key), "gateway: a test with a source talks to no agent, so no model call of it goes through the gateway")
		return
	}
	t.Gateway = gwdecl.ReadTest(l.Decoder, p.Val)
	if t.Gateway == nil || t.Simulator != nil || len(t.Turns) == 0 {
		return
	}
	for i, ft := range t.Gateway.Faults {
		if ft.Turn != nil && *ft.Turn >= len(t.Turns) {
			l.Diags.Add(ft.Pos, "%s.turn is %d, but the test has %d turns (the first is turn 0)", decode.Index("gateway.faults", i), *ft.Turn, len(t.Turns))
		}
	}
}
