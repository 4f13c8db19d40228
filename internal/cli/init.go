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
	"slices"
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
	model, api                           string // an openai target's
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
	fs.StringVar(&o.endpoint, "endpoint", "", "the agent's `url` (asked on a terminal): its AG-UI endpoint, e.g. http://localhost:8000/agent;\nwith --type openai the API's base URL, e.g. http://localhost:4010/v1; with --type http the URL of its JSON API;\nwith --example, where the example agent listens (default "+scaffold.ExampleEndpoint+")")
	fs.StringVar(&o.agentID, "agent-id", "my-agent", "the target's agentId, with --type agui (asked on a terminal)")
	fs.StringVar(&o.typ, "type", scaffold.TypeAGUI, "the agent's protocol: agui, openai (an OpenAI-compatible API) or http (a JSON API of its own);\na2a and mcp targets are written by hand: docs/a2a.md, docs/mcp.md")
	fs.StringVar(&o.model, "model", "", "with --type openai: the `model` the API is asked for, e.g. gpt-4o-mini (asked on a terminal)")
	fs.StringVar(&o.api, "api", "chat", "with --type openai: chat (Chat Completions) or responses (the Responses API)")
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
	if err := checkType(o); err != nil && !o.example {
		return err
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
	for _, name := range []string{"agent-id", "no-probe", "probe-message", "model", "api"} {
		if o.set[name] {
			return nil, invalidf("init", "--%s does not apply to --example (it copies the example as it is)", name)
		}
	}
	if o.typ != scaffold.TypeAGUI {
		return nil, invalidf("init", "--type %s does not apply to --example (the example is an AG-UI agent and its suite)", o.typ)
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
	p := scaffold.Project{Type: o.typ, InRepo: repoPath(o.dir)}
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
	if o.typ == scaffold.TypeAGUI && strings.TrimSpace(o.agentID) == "" {
		return nil, invalidf("init", "--agent-id is empty; target.agentId is required")
	}
	if o.typ == scaffold.TypeOpenAI && strings.TrimSpace(o.model) == "" {
		return nil, invalidf("init", "--model is empty; target.model is required")
	}
	p.Message = o.message
	switch o.typ {
	case scaffold.TypeAGUI:
		p.AgentID = o.agentID
	case scaffold.TypeOpenAI:
		p.API, p.Model = o.api, o.model
	}
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
		obs, shape := a.probeInit(ctx, o)
		if !scaffold.WrongPath(obs.Err) {
			p.Probe, p.HTTP = &obs, shape
			break
		}
		a.noAgentThere(o, obs.Err)
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

// checkType checks --type and the flags that belong to one type.
func checkType(o initOptions) error {
	switch o.typ {
	case scaffold.TypeAGUI, scaffold.TypeOpenAI, scaffold.TypeHTTP:
	default:
		return invalidf("init", "--type %s: init writes agui, openai and http targets; write an a2a or mcp target by hand (docs/a2a.md, docs/mcp.md)", o.typ)
	}
	if o.set["agent-id"] && o.typ != scaffold.TypeAGUI {
		return invalidf("init", "--agent-id applies to --type agui, not %s", o.typ)
	}
	for _, name := range []string{"model", "api"} {
		if o.set[name] && o.typ != scaffold.TypeOpenAI {
			return invalidf("init", "--%s applies to --type openai, not %s", name, o.typ)
		}
	}
	if o.api != "chat" && o.api != "responses" {
		return invalidf("init", "--api %q: chat (Chat Completions) or responses (the Responses API)", o.api)
	}
	return nil
}

// endpointHelp says what --endpoint is for a type, with an example.
func endpointHelp(typ string) string {
	switch typ {
	case scaffold.TypeOpenAI:
		return "the API's base URL, e.g. http://localhost:4010/v1"
	case scaffold.TypeHTTP:
		return "the URL of the agent's JSON API, e.g. http://localhost:8080/chat"
	}
	return "the agent's AG-UI endpoint, e.g. http://localhost:8000/agent"
}

// noAgentThere says that a server answered at the endpoint but serves no
// agent at its path, and where servers usually have one. It is said at
// once: on a terminal init asks again.
func (a *app) noAgentThere(o initOptions, err error) {
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s: %v\n", o.endpoint, err)
	var usual []string
	switch o.typ {
	case scaffold.TypeOpenAI:
		msg.WriteString("  a server answered, but no OpenAI-compatible API is at that base URL; APIs commonly have theirs at")
		usual = scaffold.UsualBaseURLs(o.endpoint)
	case scaffold.TypeHTTP:
		msg.WriteString("  a server answered, but takes no POST at that path")
	default:
		msg.WriteString("  a server answered, but no agent is at that path; AG-UI fixes no path, and servers commonly mount an agent at")
		usual = scaffold.UsualEndpoints(o.endpoint)
	}
	for _, u := range usual {
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
			return fmt.Errorf("--endpoint URL is needed when stdin is not a terminal (%s); or --example for the bundled example", endpointHelp(o.typ))
		}
		if o.typ == scaffold.TypeOpenAI && o.model == "" {
			return errors.New("--model is needed when stdin is not a terminal (the model the API is asked for, e.g. gpt-4o-mini)")
		}
		return nil
	}
	if err := a.askEndpoint(o); err != nil {
		return err
	}
	for o.typ == scaffold.TypeOpenAI && strings.TrimSpace(o.model) == "" {
		s, err := prompt(a.Err, a.answers(o), "The model (e.g. gpt-4o-mini): ")
		if err != nil {
			return fmt.Errorf("read the model: %w", err)
		}
		o.model = s
	}
	if o.typ == scaffold.TypeAGUI && !o.set["agent-id"] {
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
		s, err := prompt(a.Err, a.answers(o), endpointPrompt(o.typ))
		if err != nil {
			return fmt.Errorf("read the endpoint: %w", err)
		}
		o.endpoint = s
	}
	return nil
}

// endpointPrompt asks for a type's endpoint.
func endpointPrompt(typ string) string {
	switch typ {
	case scaffold.TypeOpenAI:
		return "The API's base URL (e.g. http://localhost:4010/v1): "
	case scaffold.TypeHTTP:
		return "The URL of the agent's JSON API (e.g. http://localhost:8080/chat): "
	}
	return "The agent's AG-UI endpoint (e.g. http://localhost:8000/agent): "
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

// probeInit sends the first test's message to the agent, as its type's
// target would, and says on stderr what came of it; for an http target
// also where the answer holds the reply.
func (a *app) probeInit(ctx context.Context, o initOptions) (scaffold.Observation, scaffold.HTTPShape) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if a.onSignal != nil {
		defer a.onSignal(cancel)()
	}
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	defer hc.CloseIdleConnections()
	var obs scaffold.Observation
	var shape scaffold.HTTPShape
	var found string // where an http target's answer holds what
	switch o.typ {
	case scaffold.TypeOpenAI:
		obs = a.probeOpenAI(ctx, scaffold.OpenAIProbe{HTTP: hc, Endpoint: o.endpoint, API: o.api, Model: o.model}, o.message)
	case scaffold.TypeHTTP:
		fmt.Fprintf(a.Err, "probing %s: POST {\"message\": %q} …\n", o.endpoint, o.message)
		obs, shape = scaffold.ProbeHTTP(ctx, hc, o.endpoint, o.message)
		if shape.Text != "" {
			found = " at " + shape.Text
		}
		if shape.ConversationID != "" {
			found += "; a conversation id at " + shape.ConversationID
		}
	default:
		fmt.Fprintf(a.Err, "probing %s with %q …\n", o.endpoint, o.message)
		obs = scaffold.Probe(ctx, &agui.Client{Endpoint: o.endpoint, HTTP: hc, Now: a.now}, o.message)
	}
	if scaffold.WrongPath(obs.Err) {
		return obs, shape // the caller says so
	}
	if obs.Err != nil {
		a.warn("init", fmt.Errorf("warning: the agent did not answer the probe: %w\n  the first test is generic: edit it", obs.Err))
		return obs, shape
	}
	tools := "no tool"
	if len(obs.Tools) > 0 {
		tools = strings.Join(obs.Tools, ", ")
	}
	fmt.Fprintf(a.Err, "the agent answered (%d characters of text%s) and called %s\n", len([]rune(obs.Reply)), found, tools)
	return obs, shape
}

// probeOpenAI asks an OpenAI-compatible API for its models, says when the
// model is not among them, then sends the message.
func (a *app) probeOpenAI(ctx context.Context, p scaffold.OpenAIProbe, message string) scaffold.Observation {
	fmt.Fprintf(a.Err, "probing %s (%s, model %s) with %q …\n", p.Endpoint, p.API, p.Model, message)
	switch models, err := p.Models(ctx); {
	case err != nil:
		fmt.Fprintf(a.Err, "  no list of models (%v); asking the model anyway\n", err)
	case !slices.Contains(models, p.Model):
		const most = 10
		listed := strings.Join(models[:min(len(models), most)], ", ")
		if len(models) > most {
			listed += fmt.Sprintf(", … (%d in all)", len(models))
		}
		a.warn("init", fmt.Errorf("warning: the API lists no model %q; it lists: %s", p.Model, listed))
	}
	return p.Probe(ctx, message)
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
