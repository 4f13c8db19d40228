package cli

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the conventional exit code after a second Ctrl-C.
const exitInterrupted = 130

// handleSignals cancels the run on the first SIGINT or SIGTERM, so that runs
// in flight stop and every report is still written; a second signal exits
// at once. Once a first signal came, the handler stays until the process
// ends: a second one after the run returned — its reports written, the
// process about to exit — still exits 130 rather than falling to the
// default handler's death by signal. Without a signal, stop restores the
// default.
func (a *app) handleSignals(cancel func()) (stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			signal.Stop(sigs)
			return
		}
		fmt.Fprintln(a.Err, "ananke: stopping: unfinished tests become errors and the reports are still written (interrupt again to exit at once)")
		cancel()
		<-sigs
		fmt.Fprintln(a.Err, "ananke: interrupted")
		os.Exit(exitInterrupted)
	}()
	return func() { close(done) }
}
