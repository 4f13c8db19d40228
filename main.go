// Command ananke tests tool-using AI agents over the AG-UI protocol.
package main

import (
	"context"
	"os"

	"github.com/ananke/action/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.OSStdio(), os.Environ()))
}
