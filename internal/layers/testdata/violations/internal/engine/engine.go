// Package engine imports protocols: violations.
package engine

import (
	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/target"
)

// Names are names.
var Names = []string{agui.Name, target.Name}
