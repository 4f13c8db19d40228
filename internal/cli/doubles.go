package cli

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/doubles"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
)

// `ananke doubles serve`: the tool doubles of a running `ananke run`,
// served on stdin and stdout for agents that spawn their MCP servers as
// commands (docs/doubles.md).

// doublesCommands are the commands of `ananke doubles` (shell completion
// and the help read them).
var doublesCommands []command

func init() { // not an initializer: the commands' help reads the table
	doublesCommands = []command{
		{"serve", "serve the tool doubles of a running run over stdio, for an agent that spawns its MCP servers", runDoublesServe},
	}
}

func runDoubles(ctx context.Context, a *app, args []string) error {
	return a.runSub(ctx, "doubles", doublesCommands, doublesUsage, args)
}

func doublesUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: ananke doubles serve [--url URL] [--config FILE] [--test TOKEN]")
	fmt.Fprintln(w, "\nCommands:\n  serve     serve the tool doubles of a running `ananke run` over stdio, for an agent that spawns its MCP servers")
	fmt.Fprintln(w, "\nRun 'ananke doubles serve -h' for its flags.")
}

func runDoublesServe(ctx context.Context, a *app, args []string) error {
	const scope = "doubles serve"
	fs := a.flags(scope, "")
	url := fs.String("url", "", "the doubles' `URL` (default: $"+envDoublesURL+", which `ananke run` gives target.server and the hooks, else the config's doubles.listen and path)")
	config := fs.String("config", "", "project config `file` whose doubles.listen and path give the URL (default: ananke.config.yaml here or in a parent)")
	alias(fs, "c", "config")
	token := fs.String("test", "", "send this `token` as the "+backend.Header+" header, so every call is attributed to that attempt (default: $"+backend.Var+")")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return invalidf(scope, "unexpected argument %q", fs.Arg(0))
	}
	if *url == "" {
		*url, _ = a.lookupEnv(envDoublesURL)
	}
	if *url == "" {
		u, err := a.configDoublesURL(*config)
		if err != nil {
			return withCode(ExitInvalid, scope, err)
		}
		*url = u
	}
	if *token == "" {
		*token, _ = a.lookupEnv(backend.Var)
	}
	err := doubles.Bridge(ctx, *url, a.In, a.Out, doubles.BridgeOptions{TestHeader: *token, Version: Version()})
	if err != nil && ctx.Err() == nil {
		return withCode(ExitError, scope, err)
	}
	return nil
}

// configDoublesURL is the URL of the doubles the config declares, on
// this machine. Only the config is read — the tests are the run's
// business — and its problems are printed on stderr: stdout is the
// agent's MCP stream, where a line that is not MCP breaks its client.
func (a *app) configDoublesURL(config string) (string, error) {
	path, _, err := a.findConfig(config, nil)
	if err != nil {
		return "", err
	}
	var diags diag.Diagnostics
	cfg := spec.LoadConfig(path, &diags)
	if len(diags) > 0 {
		for _, d := range diags.Sorted() {
			fmt.Fprintln(a.Err, d)
		}
		return "", fmt.Errorf("%s found in %s", plural.Count(len(diags), "problem"), path)
	}
	d := cfg.Doubles
	if d == nil {
		return "", fmt.Errorf("%s declares no doubles: (docs/doubles.md)", path)
	}
	addr, err := d.Addr(a.lookupEnv)
	if err != nil {
		return "", err
	}
	host, port, _ := net.SplitHostPort(addr)
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	if port == "0" {
		return "", fmt.Errorf("doubles.listen %s picks a free port when the run starts: pass --url, or run the agent from target.server, which gets $%s", addr, envDoublesURL)
	}
	return d.URL(net.JoinHostPort(host, port)), nil
}
