// Package hooks runs the commands a test declares under "hooks" before its
// conversation starts, and turns what they print into variables.
//
// A hook is an argv (no shell unless the user writes one) run in the test
// file's directory with the environment the caller passes in. Its stdout must
// be one JSON object whose values are strings, numbers or booleans; each key
// becomes a variable referenced as ${NAME}. Numbers keep the text the hook
// printed ("1.50" stays "1.50"), so a hook never loses precision to float64.
//
// Every failure of the hook itself — it could not start, exited non-zero, ran
// past its timeout, printed something other than one such object, or was
// cancelled — is returned as an *Error whose message names the command and
// ends with the tail of the hook's stderr, because that is usually where the
// user's script says why it failed.
//
// Two variants share Run's code path: RunAfter, for hooks run after a test,
// only requires exit status 0 and discards stdout; Exec leaves the exit
// status and stdout to the caller (script assertions: 0 passes, 1 fails)
// and returns an *Error only when the exit status cannot tell. A Command
// may carry bytes for the process's stdin.
//
// Each hook runs in its own process group (on unix). On timeout or
// cancellation the whole group is killed, so background children such as
// "sleep 100 &" do not outlive the test.
package hooks
