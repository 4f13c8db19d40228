// Package target imports a protocol: a violation.
package target

import "github.com/ananke/action/internal/mcp"

// Name is a name.
const Name = mcp.Name
