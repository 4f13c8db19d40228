package vars

import "github.com/ananke/action/internal/diag"

// Name is an identifier-like value (a test name, a tool name) with its
// position. Names never contain ${...}.
type Name struct {
	Value string
	Pos   diag.Pos
}
