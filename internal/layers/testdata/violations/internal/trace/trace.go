// Package trace imports a protocol: a violation.
package trace

import "github.com/ananke/action/internal/agui"

// Name is a name.
const Name = agui.Name
