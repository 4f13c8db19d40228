// Package backend attributes what Ananke serves in the agent's backend —
// its tool doubles (docs/doubles.md) and its model gateway
// (docs/gateway.md) — to the test attempt that caused it.
//
// The engine binds an attempt to the board while it plays its turns
// (Board.Bind) and says which turn is playing (Binding.SetTurn). A
// request the agent makes to a double or to the gateway is routed to a
// binding (Board.Route): the one named by its Header (an agent that
// forwards it lets its tests run in parallel), else the only attempt
// bound alone — which is why tests that use the backend without
// forwarding run one at a time (Board.Alone). What the request did is
// added to the binding, in the turn that was playing when it arrived
// (AddCallIn, AddModelCallIn), and the engine moves it into the turn
// when the turn ends (Binding.Take, then Fill).
package backend

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/ananke/action/internal/trace"
)

// Header is the request header that names the attempt a request to the
// backend belongs to: Ananke sends it on every request to the agent of an
// attempt bound to the backend, and an agent that forwards it to its MCP
// client and its model client gets its calls attributed by it.
const Header = "Ananke-Test"

// Var is the variable that holds the same token, for an agent that takes
// it from the request's body rather than its headers: a test file writes
// ${ANANKE_TEST} (in target.forwarded_props, a test's forwarded_props, an
// MCP server's env). It is empty in a test that does not use the backend.
const Var = "ANANKE_TEST"

// Board routes the backend's requests to the attempts bound to it.
type Board struct {
	// forwarded is set when the agent forwards Header: calls are routed
	// by it, and tests need not run alone.
	forwarded bool
	// uses reports whether the test with this id uses the backend.
	uses func(testID string) bool
	// doubles and gateway are set when the tool doubles and the model
	// gateway serve the run: a bound attempt's calls to them are all
	// known (capability.ToolTrace, capability.ModelCalls).
	doubles, gateway bool
	// doublesURL and gatewayURL are where the agent reaches them
	// (Advertise).
	doublesURL, gatewayURL string

	mu    sync.Mutex
	next  int
	bound map[string]*Binding // by token
	// orphans are the calls no binding took, in arrival order.
	orphans []Orphan
}

// Orphan is a request the board could not attribute to any attempt: none
// was bound alone, or its Header named none.
type Orphan struct {
	// What is what was asked ("tools/call check_stock", "chat
	// completions gpt-4o-mini"), Why why it was not attributed.
	What, Why string
}

// NewBoard is a board for a run. forwarded says the agent forwards
// Header (docs/doubles.md, "Parallel tests"); uses says which tests use
// the backend (they declare doubles, or the gateway is on for them).
func NewBoard(forwarded bool, uses func(testID string) bool) *Board {
	return &Board{forwarded: forwarded, uses: uses, bound: map[string]*Binding{}}
}

// WithDoubles says the tool doubles serve the run, and returns the
// board: a bound attempt's calls to a double are then all in its trace,
// streamed or not, so its tool checks can be made
// (capability.ToolTrace). Call it before the run starts.
func (b *Board) WithDoubles() *Board {
	b.doubles = true
	return b
}

// Doubles reports whether the tool doubles serve the run.
func (b *Board) Doubles() bool { return b != nil && b.doubles }

// WithGateway says the model gateway serves the run, and returns the
// board: a bound attempt's model calls are then all in its trace, so its
// model checks can be made (capability.ModelCalls). Call it before the
// run starts.
func (b *Board) WithGateway() *Board {
	b.gateway = true
	return b
}

// Gateway reports whether the model gateway serves the run.
func (b *Board) Gateway() bool { return b != nil && b.gateway }

// Uses reports whether a test uses the backend.
func (b *Board) Uses(testID string) bool { return b != nil && b.uses != nil && b.uses(testID) }

// Alone reports whether a test must run alone among the tests that use
// the backend: it uses it and the agent does not forward Header.
func (b *Board) Alone(testID string) bool { return b.Uses(testID) && !b.forwarded }

// Bind binds an attempt of test testID: the backend's requests are its
// until Release. The binding's Token is what Header carries: unique in
// the run ("ananke-attempt-3"), and long enough that a client which masks
// its header values in errors does not mask ordinary text with it.
func (b *Board) Bind(testID string) *Binding {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	bd := &Binding{board: b, TestID: testID, Token: "ananke-attempt-" + strconv.Itoa(b.next)}
	b.bound[bd.Token] = bd
	return bd
}

// BindAttempt binds attempt retry of run run (both from 0) of test
// testID, as Bind does, with a token that is the same in every run of the
// suite ("ananke-1f3a9c2e7b40-r1", "ananke-1f3a9c2e7b40-r2-retry1"): an
// agent that puts it in what it sends back, or a request body that
// carries it (${ANANKE_TEST} in forwardedProps), is recorded and replayed
// (--record, --replay) alike.
func (b *Board) BindAttempt(testID string, run, retry int) *Binding {
	sum := sha256.Sum256([]byte(testID))
	tok := "ananke-" + hex.EncodeToString(sum[:6]) + "-r" + strconv.Itoa(run+1)
	if retry > 0 {
		tok += "-retry" + strconv.Itoa(retry)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bound[tok] != nil { // the same attempt bound twice: still distinct
		b.next++
		tok += "-" + strconv.Itoa(b.next)
	}
	bd := &Binding{board: b, TestID: testID, Token: tok}
	b.bound[tok] = bd
	return bd
}

// Route finds the binding a request belongs to: the one its Header
// names, else the only binding of a test that runs alone. ok is false,
// with the reason, when there is none.
func (b *Board) Route(h http.Header) (bd *Binding, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if tok := h.Get(Header); tok != "" {
		if bd := b.bound[tok]; bd != nil {
			return bd, ""
		}
		return nil, "no test attempt is running as " + Header + ": " + strconv.Quote(tok)
	}
	var alone []*Binding
	for _, bd := range b.bound {
		if !b.forwarded {
			alone = append(alone, bd)
		}
	}
	switch len(alone) {
	case 1:
		return alone[0], ""
	case 0:
		if b.forwarded {
			return nil, "the request carried no " + Header + " header (backend.forward_test_header is set)"
		}
		return nil, "no test that uses the backend was running"
	}
	return nil, "several tests were running and the request named none with " + Header
}

// Orphan records a request no binding took.
func (b *Board) Orphan(what, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.orphans = append(b.orphans, Orphan{What: what, Why: why})
}

// Orphans are the requests no binding took, in arrival order.
func (b *Board) Orphans() []Orphan {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.orphans)
}

// Binding is one attempt bound to the board.
type Binding struct {
	board *Board
	// TestID is the test's id, Token what Header carries for it.
	TestID, Token string

	mu     sync.Mutex
	turn   int
	calls  []trace.ToolCall
	models []trace.ModelCall
	seq    int
}

// SetTurn says turn i is playing: calls from now on are its.
func (bd *Binding) SetTurn(i int) {
	bd.mu.Lock()
	bd.turn = i
	bd.mu.Unlock()
}

// Turn is the turn playing.
func (bd *Binding) Turn() int {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.turn
}

// AddCall adds a call a double served to the turn playing now; see
// AddCallIn.
func (bd *Binding) AddCall(c trace.ToolCall) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	bd.addCall(bd.turn, c)
}

// AddCallIn adds a call a double served to turn turn, the one that was
// playing when the call arrived (Turn, read then): a call answered
// after a latency belongs to the turn it was made in, even when a later
// turn plays by the time it is recorded. Its Turn is set to turn and,
// when empty, its ID to a fresh one ("double-1").
func (bd *Binding) AddCallIn(turn int, c trace.ToolCall) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	bd.addCall(turn, c)
}

func (bd *Binding) addCall(turn int, c trace.ToolCall) {
	c.Turn = turn
	if c.ID == "" {
		bd.seq++
		c.ID = "double-" + strconv.Itoa(bd.seq)
	}
	bd.calls = append(bd.calls, c)
}

// AddModelCall adds a request the gateway answered to the turn playing
// now; see AddModelCallIn.
func (bd *Binding) AddModelCall(m trace.ModelCall) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	m.Turn = bd.turn
	bd.models = append(bd.models, m)
}

// AddModelCallIn adds a request the gateway answered to turn turn, the
// one that was playing when the request arrived (Turn, read then), as
// AddCallIn does; its Turn is set to turn.
func (bd *Binding) AddModelCallIn(turn int, m trace.ModelCall) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	m.Turn = turn
	bd.models = append(bd.models, m)
}

// Take removes and returns what the binding holds for turn i.
func (bd *Binding) Take(i int) ([]trace.ToolCall, []trace.ModelCall) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	var calls []trace.ToolCall
	var models []trace.ModelCall
	bd.calls = slices.DeleteFunc(bd.calls, func(c trace.ToolCall) bool {
		if c.Turn == i {
			calls = append(calls, c)
			return true
		}
		return false
	})
	bd.models = slices.DeleteFunc(bd.models, func(m trace.ModelCall) bool {
		if m.Turn == i {
			models = append(models, m)
			return true
		}
		return false
	})
	return calls, models
}

// Release unbinds the attempt: later requests are not its.
func (bd *Binding) Release() {
	bd.board.mu.Lock()
	delete(bd.board.bound, bd.Token)
	bd.board.mu.Unlock()
}
