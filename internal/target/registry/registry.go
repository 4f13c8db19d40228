// Package registry is the table of the protocols Ananke speaks: for each
// type of target (the config's target.type), how the engine opens its
// sessions. The engine imports no protocol; the command line passes
// Lookup in (engine.Options.Protocols).
package registry

import (
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
)

// protocols are the protocols by target type.
var protocols = map[string]engine.Protocol{
	spec.TargetAGUI:   aguiProtocol,
	spec.TargetA2A:    a2aProtocol,
	spec.TargetMCP:    mcpProtocol,
	spec.TargetOpenAI: openaiProtocol,
	spec.TargetHTTP:   httpProtocol,
}

// Lookup is the protocol of a target type; a target without a type is an
// AG-UI agent.
func Lookup(targetType string) (engine.Protocol, bool) {
	if targetType == "" {
		targetType = spec.TargetAGUI
	}
	p, ok := protocols[targetType]
	return p, ok
}

// Recordable lists the target types whose exchanges --record and --replay
// keep, in spec.TargetTypes' order.
func Recordable() []string {
	var out []string
	for _, typ := range spec.TargetTypes {
		if protocols[typ].Replayed != nil {
			out = append(out, typ)
		}
	}
	return out
}

// CanRecord reports whether --record and --replay work with a target type.
func CanRecord(targetType string) bool {
	p, ok := Lookup(targetType)
	return ok && p.Replayed != nil
}
