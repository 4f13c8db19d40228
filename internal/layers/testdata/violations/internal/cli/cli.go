// Package cli may do all of it.
package cli

import (
	"os"
	"time"

	"github.com/ananke/action/reporters/console"
)

// Main touches the process.
func Main() { _, _, _ = os.Getenv(console.Name), time.Now(), os.Args }
