package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ananke/action/internal/proc"
	"github.com/ananke/action/internal/vars"
)

// Server lifecycle constants.
const (
	readyPoll     = 100 * time.Millisecond // between readiness probes
	probeTimeout  = time.Second            // one readiness probe
	stopGrace     = 5 * time.Second        // SIGTERM to SIGKILL
	serverLogTail = 20                     // lines quoted when the server fails
)

// server is a running target.server; a nil *server is a server Ananke did
// not start (none configured, or an existing one reused).
type server struct {
	cmd    *exec.Cmd
	exited chan struct{}
	err    error // the Wait error, once exited is closed
	log    *tail
}

// startServer starts target.server and waits until it is ready. What it
// reads from the environment joins the run's secrets: its output may reach
// a test's reason.
func (e *engine) startServer(ctx context.Context, out *Outcome) (*server, error) {
	cfg := e.opts.Suite.Config
	s := cfg.Target.Server
	if s == nil {
		return nil, nil
	}
	vars := vars.NewVars(e.opts.LookupEnv)
	defer func() { out.Secrets = append(out.Secrets, vars.Secrets()...) }()
	r := &Resolver{vars: vars}
	argv := make([]string, len(s.Command))
	for i, a := range s.Command {
		argv[i] = r.Str(a)
	}
	readyURL := r.URL(s.ReadyURL)
	if readyURL == "" {
		readyURL = r.URL(cfg.Target.Endpoint)
	}
	if proto, ok := e.protocol(); readyURL == "" && ok && proto.ReadyURL != nil {
		readyURL = proto.ReadyURL(&cfg.Target, r)
	}
	env := append([]string(nil), e.opts.Env...)
	for _, v := range s.Env {
		env = append(env, v.Name+"="+r.Str(v.Value))
	}
	readyLog, cwd := s.ReadyLog, r.Str(s.Cwd)
	if r.err != nil {
		return nil, fmt.Errorf("target.server: %w", r.err)
	}
	if readyLog != nil {
		if readyLog, r.err = readyLog.Bind(vars); r.err != nil {
			return nil, fmt.Errorf("target.server: %w", r.err)
		}
	}
	if s.ReuseExisting && e.answers(ctx, readyURL) {
		return nil, nil
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = filepath.Join(cfg.Dir, cwd)
	cmd.Env = env
	proc.SetGroup(cmd)
	cmd.WaitDelay = stopGrace // never wait forever for a pipe a stray child holds
	srv := &server{cmd: cmd, exited: make(chan struct{}), log: &tail{max: serverLogTail}}
	logLines := make(chan string, 64)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("target.server: start %s: %w", argv[0], err)
	}
	logged := make(chan struct{})
	go func() {
		srv.copyLog(pr, e.opts.ServerLog, logLines)
		close(logged)
	}()
	go func() {
		srv.err = cmd.Wait()
		pw.Close()
		<-logged // a server that exited at once is quoted with all it printed
		close(srv.exited)
	}()

	timeout := time.Duration(s.TimeoutMs) * time.Millisecond
	if err := e.waitReady(ctx, srv, readyURL, readyLog, logLines, timeout); err != nil {
		srv.stop()
		return nil, err
	}
	return srv, nil
}

// copyLog keeps the last lines of the server's output, copies it to w, and
// passes each line on for ready_log (dropping lines nobody waits for).
func (s *server) copyLog(r io.Reader, w io.Writer, lines chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		s.log.add(line)
		if w != nil {
			fmt.Fprintln(w, line)
		}
		select {
		case lines <- line:
		default:
		}
	}
	io.Copy(io.Discard, r)
}

// waitReady returns once the server's output matches readyLog or, without
// one, once readyURL answers HTTP 2xx or 4xx.
func (e *engine) waitReady(ctx context.Context, s *server, readyURL string, readyLog *vars.Regex, lines <-chan string, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	poll := time.NewTicker(readyPoll)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return errors.New("target.server: cancelled while waiting for it to be ready")
		case <-deadline.C:
			what := "answer at " + readyURL
			if readyLog != nil {
				what = fmt.Sprintf("print a line matching `%s`", readyLog)
			}
			return fmt.Errorf("target.server did not %s within %v%s", what, timeout, s.log.quote())
		case <-s.exited:
			return fmt.Errorf("target.server exited before it was ready (%v)%s", s.err, s.log.quote())
		case line := <-lines:
			if readyLog != nil && readyLog.Compiled().MatchString(line) {
				return nil
			}
		case <-poll.C:
			if readyLog == nil && e.answers(ctx, readyURL) {
				return nil
			}
		}
	}
}

// answers reports whether url answers HTTP 2xx or 4xx (a POST-only AG-UI
// endpoint answers a GET with 405: it is up).
func (e *engine) answers(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	hc := e.opts.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode < 500
}

// stop asks the server's whole process group to stop, then kills it.
func (s *server) stop() {
	if s == nil {
		return
	}
	// The leader may be gone while its children (the binary `go run`
	// built, say) still run: signal the group either way.
	proc.Terminate(s.cmd.Process)
	select {
	case <-s.exited:
	case <-time.After(stopGrace):
	}
	// A group member that ignored SIGTERM must not outlive the run.
	proc.Kill(s.cmd.Process)
	<-s.exited
}

// tail keeps the last lines of a log.
type tail struct {
	mu    sync.Mutex
	max   int
	lines []string
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
}

// quote renders the tail for an error message.
func (t *tail) quote() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) == 0 {
		return "; it printed nothing"
	}
	return "; its last output:\n    " + strings.Join(t.lines, "\n    ")
}
