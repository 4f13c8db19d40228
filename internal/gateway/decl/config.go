package decl

import (
	"path/filepath"
	"strconv"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Mode is how the gateway answers the agent's requests.
type Mode string

// The modes (docs/gateway.md, "Modes").
const (
	// Passthrough forwards every request to the upstream and keeps
	// nothing.
	Passthrough Mode = "passthrough"
	// Record forwards every request and keeps the exchange, per test, in
	// the recordings directory.
	Record Mode = "record"
	// Replay answers every request from the recordings; nothing is
	// forwarded.
	Replay Mode = "replay"
)

// Modes lists the modes, the default first.
var Modes = []Mode{Passthrough, Record, Replay}

// Defaults of the config's gateway:.
const (
	DefaultMode       = Passthrough
	DefaultRecordings = "gateway-recordings"
	// DefaultTimeoutMs bounds one upstream exchange, streamed answer
	// included, and how long a timeout fault holds a request.
	DefaultTimeoutMs = 300_000
)

// Config is the config's gateway: the endpoint the agent uses as its
// model's base URL, and what it forwards to.
type Config struct {
	Pos diag.Pos
	// Listen is the address the gateway listens on ("127.0.0.1:4391").
	Listen vars.Template
	// Upstream is the real model's base URL ("https://api.openai.com/v1");
	// zero when the config has none (replay needs none).
	Upstream vars.Template
	// APIKey is the upstream's key, a secret: sent as a bearer token,
	// never recorded nor shown. Zero: the agent's own Authorization is
	// forwarded.
	APIKey vars.Template
	// Mode is the mode written (DefaultMode when none); the command line
	// may override it (ParseMode).
	Mode Mode
	// Recordings is the recordings directory as written, relative to the
	// config's directory (RecordingsDir).
	Recordings string
	// Ignore are the request fields the fingerprint leaves out, as dotted
	// paths ("metadata", "messages.name").
	Ignore []string
	// TimeoutMs bounds one upstream exchange and a timeout fault's hold.
	TimeoutMs int64
	// IncludeUsage says a streamed request that does not set
	// stream_options.include_usage is forwarded with it set to true, so
	// that the stream's last chunk reports the call's usage (default
	// true; gateway.include_usage: false forwards it as sent).
	IncludeUsage bool
}

// Test is a test file's gateway: what the gateway does differently for
// this test.
type Test struct {
	Pos diag.Pos
	// Faults are answered instead of the model, by call number.
	Faults []Fault
}

// The faults that are not an HTTP status.
const (
	// FaultTimeout holds the request without an answer until the agent
	// gives up or the gateway's timeout passes (then 504).
	FaultTimeout = "timeout"
	// FaultTruncate starts an answer and cuts the connection part-way:
	// a stream without its [DONE], a body without its end.
	FaultTruncate = "truncate"
	// FaultDrop closes the connection without an answer.
	FaultDrop = "drop"
)

// FaultKinds lists the faults that are not an HTTP status.
var FaultKinds = []string{FaultTimeout, FaultTruncate, FaultDrop}

// Fault is one injected fault: the Call-th model call of the attempt
// (of its turn Turn when Turn is set), 1-based, is answered with Status
// (and Retry-After when RetryAfter is set) or with Kind.
type Fault struct {
	Pos diag.Pos
	// Turn, when set, is the turn's index (0 for the first): Call counts
	// that turn's calls only.
	Turn *int
	Call int
	// Exactly one of Status and Kind is set.
	Status int
	// RetryAfter is the Retry-After header's seconds (nil: none).
	RetryAfter *int
	Kind       string
}

// Name is what a model call's Fault says: the status ("429") or the kind.
func (f Fault) Name() string {
	if f.Kind != "" {
		return f.Kind
	}
	return strconv.Itoa(f.Status)
}

// RecordingsDir is the recordings directory: Recordings joined to the
// config's directory unless absolute.
func (c *Config) RecordingsDir(configDir string) string {
	if filepath.IsAbs(c.Recordings) {
		return c.Recordings
	}
	return filepath.Join(configDir, c.Recordings)
}
