package engine

import (
	"net/http"
	"strconv"
	"time"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// Protocol is what the engine needs of one type of target (the config's
// target.type): how an attempt's session opens, and how the turn's
// built-in checks speak of it. The engine knows no protocol of its own:
// Options.Protocols gives them (package target/registry).
type Protocol struct {
	// Open returns attempt a's session, not yet connected, resolving
	// through a what it needs of the config's target and of the test. A
	// failure to resolve is kept by a: the attempt then errors before its
	// first turn, and the session is closed unused.
	Open func(a *Setup) target.Session
	// Words say how the run_error and protocol checks speak of the
	// protocol.
	Words Words
	// ReadyURL, when set, is where target.server is up when neither its
	// ready_url nor the target's endpoint says ("": nowhere).
	ReadyURL func(tg *spec.Target, r *Resolver) string
	// Replayed is the source of a replayed trace (--replay); nil when the
	// protocol's exchanges cannot be recorded (--record and --replay
	// refuse its targets).
	Replayed *trace.Source
}

// Words say how a turn's built-in checks speak of a protocol.
type Words struct {
	// None and NoneMessage are the run_error check's expected and observed
	// when the agent reported no error, and its passing message; Name is
	// one error, as counted and in evidence notes; Message heads the
	// failing message; Code appends an error's code (" (code %s)").
	None, NoneMessage, Name, Message, Code string
	// Conformance is what the protocol check expects ("a stream that
	// follows the AG-UI protocol").
	Conformance string
}

// Setup is what a protocol opens an attempt's session from: the config's
// target, the test, the attempt's way to the agent, and the attempt's
// variables (its Resolver).
type Setup struct {
	*Resolver
	// Target is the config's target and Dir the config's directory.
	Target *spec.Target
	Dir    string
	Test   *spec.Test
	// HTTP is the client the attempt's requests go through (the tape's
	// under --record and --replay, so a session over HTTP is recorded and
	// replayed without knowing it); Now is the attempt's clock, and NewID
	// makes ids.
	HTTP  *http.Client
	Now   func() time.Time
	NewID func() string

	p        *plan
	header   http.Header
	endpoint string
	history  []target.Message
	resolved uint8 // which of header, endpoint, history are resolved
}

const (
	resolvedHeader = 1 << iota
	resolvedEndpoint
	resolvedHistory
)

// Secret adds values to the attempt's secrets: no report shows them.
func (a *Setup) Secret(values ...string) { a.p.secrets = append(a.p.secrets, values...) }

// Header is the headers every request of the attempt sends: the target's
// (target.headers), resolved, whose values are secrets; and, when the
// attempt is bound to Ananke's backend, backend.Header with its token
// and the URLs of the doubles and the gateway (docs/backend.md), which
// are not.
func (a *Setup) Header() http.Header {
	if a.resolved&resolvedHeader == 0 {
		a.resolved |= resolvedHeader
		a.header = http.Header{}
		for _, h := range a.Target.Headers {
			v := a.Str(h.Value)
			a.header.Set(h.Name, v)
			a.Secret(v)
		}
		if bd := a.p.binding; bd != nil {
			bd.SetHeaders(a.header)
		}
	}
	return a.header
}

// Endpoint is the target's endpoint, resolved.
func (a *Setup) Endpoint() string {
	if a.resolved&resolvedEndpoint == 0 {
		a.resolved |= resolvedEndpoint
		a.endpoint = a.URL(a.Target.Endpoint)
	}
	return a.endpoint
}

// History is the messages the test places before its first turn,
// resolved; the trace records them whether or not the session sends them.
// An attack run's payload is planted in the message at its site's index
// (plant.History), as sent and as the trace shows it.
func (a *Setup) History() []target.Message {
	if a.resolved&resolvedHistory == 0 {
		a.resolved |= resolvedHistory
		attack := a.Test.Attack
		for i, m := range a.Test.History {
			text := a.Str(m.Content)
			parts, atts := a.parts(m.Parts, attack)
			text, parts = plantMessage(attack, plant.History, strconv.Itoa(i), text, parts)
			a.history = append(a.history, target.Message{Role: m.Role, Text: text, Parts: parts})
			a.p.given = append(a.p.given, trace.Message{Role: m.Role, Content: text, Attachments: atts})
		}
	}
	return a.history
}
