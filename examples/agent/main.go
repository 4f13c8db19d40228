package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// shutdownTimeout is how long a stopping server lets streams in progress
// finish; the slow script's longest wait fits in it.
const shutdownTimeout = 10 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}

// run parses the flags, serves until ctx ends, then shuts down gracefully.
// The "listening on" line is printed once the socket is open, so a test or
// CI step can wait for it instead of polling; with port 0 it shows the port
// the system picked.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8000", "`host:port` to listen on (port 0 picks a free port)")
	delayMS := fs.Int("delay-ms", 5, "pause between events in `milliseconds`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *delayMS < 0 {
		return fmt.Errorf("-delay-ms must not be negative, got %d", *delayMS)
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           newHandler(time.Duration(*delayMS) * time.Millisecond),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(stdout, "listening on http://%s/agent\n", ln.Addr())

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served: // Serve only returns on failure before Shutdown
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}
