package gateway

import "github.com/ananke/action/internal/gateway/decl"

// The file model's names, as the gateway uses them (package decl).
type (
	Mode   = decl.Mode
	Config = decl.Config
	Test   = decl.Test
	Fault  = decl.Fault
)

// The modes and defaults (decl).
const (
	Passthrough      = decl.Passthrough
	Record           = decl.Record
	Replay           = decl.Replay
	DefaultMode      = decl.DefaultMode
	DefaultTimeoutMs = decl.DefaultTimeoutMs
	FaultTimeout     = decl.FaultTimeout
	FaultTruncate    = decl.FaultTruncate
	FaultDrop        = decl.FaultDrop
)

// Modes lists the modes, the default first.
var Modes = decl.Modes

// ParseMode reads a mode written on the command line (--gateway).
func ParseMode(s string) (Mode, error) { return decl.ParseMode(s) }
