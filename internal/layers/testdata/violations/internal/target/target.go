// Package target imports a protocol (allowed here).
package target

import "github.com/ananke/action/internal/mcp"

// Name is a name.
const Name = mcp.Name
