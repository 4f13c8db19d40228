// Package gateway is a backend server: only the command line starts it.
package gateway

import "github.com/ananke/action/internal/gateway/decl"

// Mode is its mode.
const Mode = decl.Mode
