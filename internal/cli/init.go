package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/scaffold"
)

// probeTimeout bounds the probe's run, as the written config's
// target.timeout_ms bounds every run.
const probeTimeout = 60 * time.Second

// initOptions are `ananke init`'s flags and operand.
type initOptions struct {
	dir, endpoint, agentID, typ, message string
	force, noProbe, example              bool
	set                                  map[string]bool // flags given on the command line
	in                                   *bufio.Reader   // the terminal's answers, once read
}

// runInit is `ananke init [DIR]`: it writes a config, a first test built
// from a probe of the agent, and a GitHub workflow — or, with --example,
// the quickstart suite and the example agent. It overwrites nothing
// without --force. Exit 0 when the files were written (also when the probe
// failed: the test is then generic), 3 on bad flags or existing files, 2
// when writing failed.
func runInit(ctx context.Context, a *app, args []string) error {
	fs := a.flags("init", "[DIR]")
	o := initOptions{}
	fs.StringVar(&o.endpoint, "endpoint", "", "the agent's AG-UI endpoint `url`, e.g. http://localhost:8000/agent (asked on a terminal);\nwith --example, where the example agent listens (default "+scaffold.ExampleEndpoint+")")
	fs.StringVar(&o.agentID, "agent-id", "my-agent", "the target's agentId (asked on a terminal)")
	fs.StringVar(&o.typ, "type", "agui", "the agent's protocol: agui (a2a and mcp targets are written by hand: docs/a2a.md, docs/mcp.md)")
	fs.StringVar(&o.message, "probe-message", "Hello", "the first test's message, sent to the agent to see what it does")
	fs.BoolVar(&o.noProbe, "no-probe", false, "send nothing: write a generic first test")
	fs.BoolVar(&o.force, "force", false, "overwrite files that exist")
	fs.BoolVar(&o.example, "example", false, "write the bundled example instead: the quickstart suite and the example agent (needs Go to run)")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	switch fs.NArg() {
	case 0:
		o.dir = "."
	case 1:
		o.dir = fs.Arg(0)
	default:
		return invalidf("init", "one directory at most, got %d: %s", fs.NArg(), strings.Join(fs.Args(), " "))
	}
	if o.typ != "agui" {
		return invalidf("init", "--type %s: init writes AG-UI projects only (type agui); write an a2a or mcp target by hand (docs/a2a.md, docs/mcp.md)", o.typ)
	}
	var files []scaffold.File
	var err error
	if o.example {
		files, err = a.initExample(o)
	} else {
		files, err = a.initProject(ctx, o)
	}
	if err != nil {
		return err
	}
	return a.writeProject(o, files)
}

// initExample returns the example's files.
func (a *app) initExample(o initOptions) ([]scaffold.File, error) {
	for _, name := range []string{"agent-id", "no-probe", "probe-message"} {
		if o.set[name] {
			return nil, invalidf("init", "--%s does not apply to --example (it copies the example as it is)", name)
		}
	}
	endpoint := o.endpoint
	if endpoint == "" {
		endpoint = scaffold.ExampleEndpoint
	}
	files, err := scaffold.Example(endpoint)
	if err != nil {
		return nil, withCode(ExitInvalid, "init", err)
	}
	if existing := scaffold.Existing(o.dir, files); len(existing) > 0 && !o.force {
		return nil, refuse(existing)
	}
	return files, nil
}

// initProject asks for what the flags left out (on a terminal), checks no
// file would be overwritten, probes the agent and renders the files. An
// endpoint where a server answers but no agent is (HTTP 404 or 405) writes
// nothing: on a terminal it is asked again, elsewhere init exits 3.
func (a *app) initProject(ctx context.Context, o initOptions) ([]scaffold.File, error) {
	if strings.TrimSpace(o.message) == "" {
		return nil, invalidf("init", "--probe-message is empty; the first test needs a message")
	}
	p := scaffold.Project{InRepo: repoPath(o.dir)}
	files, err := p.Files() // the paths, before anything is asked or sent
	if err != nil {
		return nil, withCode(ExitError, "init", err)
	}
	if existing := scaffold.Existing(o.dir, files); len(existing) > 0 && !o.force {
		return nil, refuse(existing)
	}
	if err := a.ask(&o); err != nil {
		return nil, withCode(ExitInvalid, "init", err)
	}
	if strings.TrimSpace(o.agentID) == "" {
		return nil, invalidf("init", "--agent-id is empty; target.agentId is required")
	}
	p.AgentID, p.Message = o.agentID, o.message
	if root := gitRoot(o.dir); root != "" {
		p.Branch = a.defaultBranch(ctx, root)
	}
	for {
		if err := checkURL(o.endpoint); err != nil {
			return nil, invalidf("init", "--endpoint %w", err)
		}
		p.Endpoint = o.endpoint
		if o.noProbe {
			p.NotProbed = "the agent was not probed (--no-probe)"
			break
		}
		obs := a.probeAgent(ctx, o.endpoint, o.message)
		if !scaffold.WrongPath(obs.Err) {
			p.Probe = &obs
			break
		}
		a.noAgentThere(o.endpoint, obs.Err)
		if !a.InIsTerminal {
			return nil, invalidf("init", "nothing was written: give the agent's endpoint with --endpoint (or --no-probe to write the files without asking the agent)")
		}
		o.endpoint, o.set["endpoint"] = "", false
		if err := a.askEndpoint(&o); err != nil {
			return nil, withCode(ExitInvalid, "init", err)
		}
	}
	if files, err = p.Files(); err != nil {
		return nil, withCode(ExitError, "init", err)
	}
	return files, nil
}

// noAgentThere says that a server answered at the endpoint but serves no
// agent at its path, and where servers usually mount one. It is said at
// once: on a terminal init asks again.
func (a *app) noAgentThere(endpoint string, err error) {
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s: %v\n", endpoint, err)
	msg.WriteString("  a server answered, but no agent is at that path; AG-UI fixes no path, and servers commonly mount an agent at")
	for _, u := range scaffold.UsualEndpoints(endpoint) {
		fmt.Fprintf(&msg, "\n    %s", u)
	}
	a.warn("init", errors.New(msg.String()))
}

// refuse names the files that exist; nothing is written (exit 3).
func refuse(existing []string) error {
	var errs []error
	for _, p := range existing {
		errs = append(errs, fmt.Errorf("%s exists; use --force to overwrite", p))
	}
	errs = append(errs, errors.New("nothing was written"))
	return withCode(ExitInvalid, "init", errors.Join(errs...))
}

// ask fills the endpoint and the agent id from the terminal when their
// flags were not given; without a terminal a missing endpoint is an error
// naming the flag, so scripts and CI never wait for an answer.
func (a *app) ask(o *initOptions) error {
	if !a.InIsTerminal {
		if o.endpoint == "" {
			return errors.New("--endpoint URL is needed when stdin is not a terminal (the agent's AG-UI endpoint, e.g. http://localhost:8000/agent); or --example for the bundled example")
		}
		return nil
	}
	if err := a.askEndpoint(o); err != nil {
		return err
	}
	if !o.set["agent-id"] {
		s, err := prompt(a.Err, a.answers(o), fmt.Sprintf("Agent id [%s]: ", o.agentID))
		if err != nil {
			return fmt.Errorf("read the agent id: %w", err)
		}
		if s != "" {
			o.agentID = s
		}
	}
	return nil
}

// askEndpoint asks for the endpoint until it is a URL, unless the flag
// gave one.
func (a *app) askEndpoint(o *initOptions) error {
	for o.endpoint == "" || !o.set["endpoint"] && checkURL(o.endpoint) != nil {
		if o.endpoint != "" {
			fmt.Fprintf(a.Err, "  %v\n", checkURL(o.endpoint))
		}
		s, err := prompt(a.Err, a.answers(o), "The agent's AG-UI endpoint (e.g. http://localhost:8000/agent): ")
		if err != nil {
			return fmt.Errorf("read the endpoint: %w", err)
		}
		o.endpoint = s
	}
	return nil
}

// answers reads the terminal through one buffer, however often init asks.
func (a *app) answers(o *initOptions) *bufio.Reader {
	if o.in == nil {
		o.in = bufio.NewReader(a.In)
	}
	return o.in
}

// prompt writes question and reads one line of answer, trimmed.
func prompt(w io.Writer, in *bufio.Reader, question string) (string, error) {
	fmt.Fprint(w, question)
	line, err := in.ReadString('\n')
	if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
		if errors.Is(err, io.EOF) {
			err = errors.New("no answer (end of input)")
		}
		return "", err
	}
	return strings.TrimSpace(line), nil
}

// checkURL says what is wrong with an endpoint, as the config's loader
// would.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http:// or https:// URL", s)
	}
	return nil
}

// probeAgent sends the first test's message to the agent and says on stderr
// what came of it.
func (a *app) probeAgent(ctx context.Context, endpoint, message string) scaffold.Observation {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if a.onSignal != nil {
		defer a.onSignal(cancel)()
	}
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	defer hc.CloseIdleConnections()
	fmt.Fprintf(a.Err, "probing %s with %q …\n", endpoint, message)
	obs := scaffold.Probe(ctx, &agui.Client{Endpoint: endpoint, HTTP: hc, Now: a.now}, message)
	if scaffold.WrongPath(obs.Err) {
		return obs // the caller says so
	}
	if obs.Err != nil {
		a.warn("init", fmt.Errorf("warning: the agent did not answer the probe: %w\n  the first test is generic: edit it", obs.Err))
		return obs
	}
	tools := "no tool"
	if len(obs.Tools) > 0 {
		tools = strings.Join(obs.Tools, ", ")
	}
	fmt.Fprintf(a.Err, "the agent answered (%d characters of text) and called %s\n", len([]rune(obs.Reply)), tools)
	return obs
}

// rel is path relative to the working directory, as init's other paths
// are written.
func (a *app) rel(path string) string {
	wd, err := a.getwd()
	if err != nil {
		return path
	}
	if r, err := filepath.Rel(wd, path); err == nil {
		return r
	}
	return path
}

// writeProject writes the files and says what comes next.
func (a *app) writeProject(o initOptions, files []scaffold.File) error {
	if err := scaffold.Write(o.dir, files, o.force); err != nil {
		var exists *scaffold.ExistsError
		if errors.As(err, &exists) { // created since the check
			return refuse([]string{exists.Path})
		}
		return withCode(ExitError, "init", err)
	}
	for _, f := range files {
		fmt.Fprintf(a.Out, "wrote %s\n", filepath.Join(o.dir, filepath.FromSlash(f.Path)))
	}
	if root := gitRoot(o.dir); root != "" {
		changed, err := scaffold.Ignore(root)
		if err != nil {
			return withCode(ExitError, "init", err)
		}
		if changed {
			fmt.Fprintf(a.Out, "added %s/ to %s\n", scaffold.ReportDir, a.rel(filepath.Join(root, scaffold.IgnoreFile)))
		}
	}
	run := "ananke run"
	if filepath.Clean(o.dir) != "." {
		run = "ananke run --config " + filepath.Join(o.dir, scaffold.ConfigFile)
	}
	fmt.Fprintln(a.Out, "\nNext:")
	if o.example {
		fmt.Fprintf(a.Out, "  %-38s  run the quickstart: Ananke starts the example agent (go run)\n", run)
		return nil
	}
	fmt.Fprintf(a.Out, "  %-38s  run the first test against the agent\n", run)
	fmt.Fprintf(a.Out, "  %-38s  make it check what the agent must do (docs/files.md)\n", "edit "+filepath.Join(o.dir, filepath.FromSlash(scaffold.TestFile)))
	for _, f := range files {
		if strings.HasSuffix(f.Path, scaffold.WorkflowFile) {
			fmt.Fprintf(a.Out, "  %-38s  your agent's image, then commit and push it\n", "edit "+filepath.Join(o.dir, filepath.FromSlash(f.Path)))
		}
	}
	return nil
}
