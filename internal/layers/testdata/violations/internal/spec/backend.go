package spec

import (
	"github.com/ananke/action/internal/gateway"
	"github.com/ananke/action/internal/gateway/decl"
)

// Modes are the gateway's mode twice: through its file model (allowed)
// and through the server (a violation).
var Modes = []string{decl.Mode, gateway.Mode}
