package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/doubles"
	"github.com/ananke/action/internal/doubles/decl"
	"github.com/ananke/action/internal/gateway"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// The environment variables that give the agent, target.server and the
// hooks the URLs of what Ananke serves behind the agent
// (docs/backend.md): a config writes ${ENV.ANANKE_DOUBLES_URL} in its
// target.server's env.
const (
	envDoublesURL = "ANANKE_DOUBLES_URL"
	envGatewayURL = "ANANKE_GATEWAY_URL"
	// envBackendHost is the host the URLs name when a server listens on
	// every interface (0.0.0.0): the address the agent reaches this
	// machine at (default: this machine's first non-loopback IPv4
	// address, e.g. the action container's on the job's network).
	envBackendHost = "ANANKE_BACKEND_HOST"
)

// agentBackend is what serves the agent's backend during a run: the tool
// doubles and the model gateway, on one board that attributes their
// requests to test attempts.
type agentBackend struct {
	board   *backend.Board
	doubles *doubles.Server
	gateway *gateway.Gateway
	// mode is the gateway's mode.
	mode    gateway.Mode
	servers []*http.Server
	// env are the variables that name the URLs (envDoublesURL, …).
	env []string
	// secrets are the gateway's key and what its URLs hold.
	secrets []string
	done    chan error

	stopOnce sync.Once
	stopErr  error
}

// startBackend starts the tool doubles and the model gateway the config
// declares, listening before any test (or target.server) starts; nil
// when it declares neither. mode is --gateway ("" keeps the config's).
// With dryRun nothing listens: the URLs are the configured ones.
//
// Its error carries the exit code: 3 for what the files or the flags
// ask that cannot be (an unknown --gateway mode, --gateway without a
// gateway:, an unset variable in an address, a corrupt or missing
// recording), as for a broken test file or --replay's recording; 2 for
// an address this machine cannot listen on.
func (a *app) startBackend(suite *spec.Suite, mode string, dryRun bool) (*agentBackend, error) {
	cfg := suite.Config
	if mode != "" {
		if _, err := gateway.ParseMode(mode); err != nil {
			return nil, invalidf("", "--gateway: %v", err)
		}
		if cfg.Gateway == nil {
			return nil, invalidf("", "--gateway %s: the config has no gateway: section (docs/gateway.md)", mode)
		}
	}
	if cfg.Doubles == nil && cfg.Gateway == nil {
		return nil, nil
	}
	uses := map[string]bool{}
	for _, t := range suite.Tests {
		uses[t.ID] = t.UsesBackend(cfg)
	}
	b := &agentBackend{board: backend.NewBoard(cfg.Backend.ForwardTestHeader, func(id string) bool { return uses[id] })}
	var listeners []net.Listener
	fail := func(err error) (*agentBackend, error) {
		for _, ln := range listeners {
			if ln != nil { // nil: a dry run listens on nothing
				ln.Close()
			}
		}
		return nil, err
	}
	var doublesURL, gatewayURL string
	if cfg.Doubles != nil {
		addr, err := cfg.Doubles.Addr(a.lookupEnv)
		if err != nil {
			return fail(withCode(ExitInvalid, "", err))
		}
		ln, err := a.listen(addr, dryRun)
		if err != nil {
			return fail(errorf("", "%s: doubles.listen: %v", cfg.Doubles.Listen.Pos, err))
		}
		listeners = append(listeners, ln)
		doublesURL = cfg.Doubles.URL(a.advertised(addr, ln))
		plans := map[string]*decl.Plan{}
		for _, t := range suite.Tests {
			if t.Doubles != nil {
				plans[t.ID] = t.Doubles
			}
		}
		b.doubles = doubles.NewServer(cfg.Doubles, b.board, plans, doubles.Options{Now: a.now, Version: Version()})
		b.board.WithDoubles()
		b.env = append(b.env, envDoublesURL+"="+doublesURL)
	}
	if g := cfg.Gateway; g != nil {
		gw, url, ln, err := a.newGateway(suite, b, mode, dryRun)
		if ln != nil {
			listeners = append(listeners, ln)
		}
		if err != nil {
			return fail(err)
		}
		b.gateway, gatewayURL = gw, url
		b.mode = gatewayMode(g.Mode, mode)
		b.board.WithGateway()
		b.env = append(b.env, envGatewayURL+"="+gatewayURL)
	}
	b.board.Advertise(doublesURL, gatewayURL)
	if dryRun {
		return b, nil
	}
	b.done = make(chan error, len(listeners))
	i := 0
	if b.doubles != nil {
		hs := &http.Server{Handler: b.doubles.Handler(), ReadHeaderTimeout: time.Minute}
		b.serve(hs, listeners[i])
		i++
	}
	if b.gateway != nil {
		b.serve(b.gateway.Server(""), listeners[i])
	}
	return b, nil
}

// newGateway makes the model gateway of the config with its mode (the
// config's, or --gateway, already checked), listening on gateway.listen;
// url is what the agent uses as its model's base URL. Its error carries
// the exit code, as startBackend's.
func (a *app) newGateway(suite *spec.Suite, b *agentBackend, flagMode string, dryRun bool) (*gateway.Gateway, string, net.Listener, error) {
	g := suite.Config.Gateway
	mode := gatewayMode(g.Mode, flagMode)
	vs := vars.NewVars(a.lookupEnv)
	addr, err := g.Listen.Resolve(vs)
	if err != nil {
		return nil, "", nil, withCode(ExitInvalid, "", fieldError(g.Listen.Pos, "gateway.listen", err))
	}
	var upstream, key string
	if mode == gateway.Replay {
		// Replay forwards nothing: the upstream and the key may be unset
		// (a CI job with no model and no key, docs/gateway.md "Modes");
		// when set, they are read only to be masked.
		upstream, _ = g.Upstream.ResolveURL(vs)
		key, _ = g.APIKey.Resolve(vs)
	} else {
		if upstream, err = g.Upstream.ResolveURL(vs); err != nil {
			return nil, "", nil, withCode(ExitInvalid, "", fieldError(g.Upstream.Pos, "gateway.upstream", err))
		}
		if key, err = g.APIKey.Resolve(vs); err != nil {
			return nil, "", nil, withCode(ExitInvalid, "", fieldError(g.APIKey.Pos, "gateway.api_key", err))
		}
	}
	b.secrets = append(b.secrets, vs.Secrets()...)
	if key != "" {
		b.secrets = append(b.secrets, key)
	}
	ln, err := a.listen(addr, dryRun)
	if err != nil {
		return nil, "", nil, errorf("", "%s: gateway.listen: %v", g.Listen.Pos, err)
	}
	url := "http://" + a.advertised(addr, ln) + "/v1"
	if dryRun {
		return nil, url, ln, nil
	}
	tests := map[string]*gateway.Test{}
	for _, t := range suite.Tests {
		if t.Gateway != nil {
			tests[t.ID] = t.Gateway
		}
	}
	gw, err := gateway.New(gateway.Options{Mode: mode, Upstream: upstream, APIKey: key, Dir: g.RecordingsDir(suite.Config.Dir),
		Ignore: g.Ignore, LeaveStreamOptions: !g.IncludeUsage, Timeout: time.Duration(g.TimeoutMs) * time.Millisecond, Board: b.board, Tests: tests, Now: a.now,
		ModelFor: a.modelFor})
	if err != nil {
		// a corrupt or missing recording, an upstream that is no URL
		return nil, url, ln, withCode(ExitInvalid, "", err)
	}
	return gw, url, ln, nil
}

// fieldError is what is wrong with the config's field at pos; a
// reference that could not be resolved is said at its own position,
// once.
func fieldError(pos diag.Pos, field string, err error) error {
	if re, ok := errors.AsType[*vars.ResolveError](err); ok {
		return fmt.Errorf("%s: %s: %s", re.Pos, field, re.Msg)
	}
	return fmt.Errorf("%s: %s: %w", pos, field, err)
}

// gatewayMode is the gateway's mode: --gateway's when valid, else the
// config's.
func gatewayMode(config gateway.Mode, flag string) gateway.Mode {
	if m, err := gateway.ParseMode(flag); flag != "" && err == nil {
		return m
	}
	return config
}

// listen listens on addr; with dryRun it does not, and returns nil.
func (a *app) listen(addr string, dryRun bool) (net.Listener, error) {
	if dryRun {
		return nil, nil
	}
	return net.Listen("tcp", addr)
}

// advertised is the host:port the agent reaches a server listening on
// addr at: the port it got (for port 0), and for a server on every
// interface, $ANANKE_BACKEND_HOST or this machine's first non-loopback
// IPv4 address.
func (a *app) advertised(addr string, ln net.Listener) string {
	host, port, _ := net.SplitHostPort(addr)
	if ln != nil {
		_, port, _ = net.SplitHostPort(ln.Addr().String())
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
		if h, ok := a.lookupEnv(envBackendHost); ok && h != "" {
			host = h
		} else if ip := firstIPv4(); ip != "" {
			host = ip
		}
	}
	return net.JoinHostPort(host, port)
}

// firstIPv4 is this machine's first non-loopback IPv4 address; "" when
// it has none.
func firstIPv4() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, ad := range addrs {
		if ipn, ok := ad.(*net.IPNet); ok && !ipn.IP.IsLoopback() && ipn.IP.To4() != nil {
			return ipn.IP.String()
		}
	}
	return ""
}

// serve serves hs on ln until stop.
func (b *agentBackend) serve(hs *http.Server, ln net.Listener) {
	b.servers = append(b.servers, hs)
	go func() {
		err := hs.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		b.done <- err
	}()
}

// stop stops the servers (a timeout fault's held request is let go) and
// saves the gateway's recordings (record mode), once; its error says
// what was lost.
func (b *agentBackend) stop() error {
	if b == nil || b.done == nil {
		return nil
	}
	b.stopOnce.Do(func() { b.stopErr = b.shutdown() })
	return b.stopErr
}

func (b *agentBackend) shutdown() error {
	if b.doubles != nil {
		b.doubles.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	for _, hs := range b.servers {
		if hs.Shutdown(ctx) != nil {
			hs.Close()
		}
	}
	for range b.servers {
		if err := <-b.done; err != nil {
			errs = append(errs, fmt.Errorf("serve the agent's backend: %w", err))
		}
	}
	if b.gateway != nil {
		if err := b.gateway.Close(); err != nil {
			errs = append(errs, fmt.Errorf("gateway: %w", err))
		}
	}
	return errors.Join(errs...)
}

// describe is the lines -v prints as the run starts.
func (b *agentBackend) describe() string {
	var lines []string
	if u, _ := b.board.URLs(); u != "" {
		lines = append(lines, "tool doubles: "+u)
	}
	if _, u := b.board.URLs(); u != "" {
		lines = append(lines, "model gateway ("+string(b.mode)+"): "+u)
	}
	return strings.Join(lines, "\n")
}

// environ is the variables naming the URLs; none without a backend.
func (b *agentBackend) environ() []string {
	if b == nil {
		return nil
	}
	return b.env
}

// boardOrNil is the board the engine binds attempts to; nil without a
// backend.
func (b *agentBackend) boardOrNil() *backend.Board {
	if b == nil {
		return nil
	}
	return b.board
}

// secretsOrNil are the secrets the backend read; none without one.
func (b *agentBackend) secretsOrNil() []string {
	if b == nil {
		return nil
	}
	return b.secrets
}
