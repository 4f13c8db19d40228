// Command ananke tests tool-using AI agents over the AG-UI protocol.
//
//	go install github.com/ananke/action/cmd/ananke@latest
//
// It is the same program as the module root's main package (which keeps
// `go run .` working in a checkout); releases and the action image build
// this one.
package main

import (
	"context"
	"os"

	"github.com/ananke/action/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.OSStdio(), os.Environ()))
}
