// Package spec imports the seam: a violation.
package spec

import "github.com/ananke/action/internal/target"

// Name is a name.
const Name = target.Name
