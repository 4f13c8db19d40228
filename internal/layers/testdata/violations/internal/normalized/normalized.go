// Package normalized imports a reporter: a violation.
package normalized

import "github.com/ananke/action/reporters/console"

// Name is a name.
const Name = console.Name
