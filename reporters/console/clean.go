package console

import "github.com/ananke/action/internal/textsafe"

// clean makes text from agents, hooks and files safe to print on one line
// of a terminal. Ananke's own colours are added after cleaning, by paint.
func clean(s string) string { return textsafe.Visible(s, false) }
