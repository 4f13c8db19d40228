package backend_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

func header(token string) http.Header {
	h := http.Header{}
	if token != "" {
		h.Set(backend.Header, token)
	}
	return h
}

func TestRoute(t *testing.T) {
	all := func(string) bool { return true }
	t.Run("alone", func(t *testing.T) {
		b := backend.NewBoard(false, all)
		if _, why := b.Route(header("")); !strings.Contains(why, "no test that uses the backend") {
			t.Errorf("nothing bound: why %q", why)
		}
		a := b.Bind("t1")
		if got, _ := b.Route(header("")); got != a {
			t.Errorf("the only binding did not take a request without a header")
		}
		if got, _ := b.Route(header(a.Token)); got != a {
			t.Errorf("the binding its header names did not take the request")
		}
		a.Release()
		if got, _ := b.Route(header(a.Token)); got != nil {
			t.Errorf("a released binding took a request")
		}
	})
	t.Run("forwarded", func(t *testing.T) {
		b := backend.NewBoard(true, all)
		a, c := b.Bind("t1"), b.Bind("t2")
		if a.Token == c.Token || !strings.HasPrefix(a.Token, "ananke-attempt-") {
			t.Errorf("tokens %q, %q; want distinct ananke-attempt-N", a.Token, c.Token)
		}
		if got, _ := b.Route(header(c.Token)); got != c {
			t.Errorf("the request went to %v; want t2's binding", got)
		}
		if got, why := b.Route(header("")); got != nil || !strings.Contains(why, "no "+backend.Header) {
			t.Errorf("a request without the header went to %v (%q); want none", got, why)
		}
		if b.Alone("t1") {
			t.Error("a forwarded board's tests run alone")
		}
	})
}

func TestTakeByTurn(t *testing.T) {
	b := backend.NewBoard(false, func(string) bool { return true })
	bd := b.Bind("t")
	bd.AddCall(trace.ToolCall{Name: "a"})
	bd.SetTurn(1)
	bd.AddCall(trace.ToolCall{Name: "b"})
	bd.AddModelCall(trace.ModelCall{Model: "m"})
	calls, models := bd.Take(0)
	if len(calls) != 1 || calls[0].Name != "a" || calls[0].ID != "double-1" || len(models) != 0 {
		t.Errorf("turn 0: %+v %+v", calls, models)
	}
	// arrived in turn 0, recorded once turn 1 plays
	bd.AddCallIn(0, trace.ToolCall{Name: "slow"})
	bd.AddModelCallIn(0, trace.ModelCall{Model: "slow"})
	calls, models = bd.Take(1)
	if len(calls) != 1 || calls[0].Turn != 1 || len(models) != 1 || models[0].Turn != 1 {
		t.Errorf("turn 1: %+v %+v", calls, models)
	}
	calls, models = bd.Take(0)
	if len(calls) != 1 || calls[0].Name != "slow" || calls[0].Turn != 0 || calls[0].ID != "double-3" || len(models) != 1 || models[0].Model != "slow" || models[0].Turn != 0 {
		t.Errorf("turn 0, late: %+v %+v", calls, models)
	}
	if calls, models = bd.Take(1); len(calls)+len(models) != 0 {
		t.Error("Take returned a turn's calls twice")
	}
	if g := backend.NewBoard(false, nil).WithGateway(); !g.Gateway() || g.Doubles() || b.Gateway() {
		t.Error("Gateway does not say whether WithGateway was called")
	}
	if d := backend.NewBoard(false, nil).WithDoubles(); !d.Doubles() || d.Gateway() {
		t.Error("Doubles does not say whether WithDoubles was called")
	}
}

// TestBindAttempt: an attempt's token is the same whenever the suite runs
// (a recorded request that carries it replays), and distinct per test,
// run and retry.
func TestBindAttempt(t *testing.T) {
	b := backend.NewBoard(true, func(string) bool { return true })
	seen := map[string]bool{}
	for _, tc := range []struct {
		id         string
		run, retry int
	}{{"tests/a", 0, 0}, {"tests/a", 1, 0}, {"tests/a", 0, 1}, {"tests/b", 0, 0}} {
		bd := b.BindAttempt(tc.id, tc.run, tc.retry)
		again := backend.NewBoard(true, nil).BindAttempt(tc.id, tc.run, tc.retry)
		if bd.Token != again.Token || seen[bd.Token] || !strings.HasPrefix(bd.Token, "ananke-") {
			t.Errorf("%+v: token %q (another run: %q); want one of its own, the same in every run", tc, bd.Token, again.Token)
		}
		seen[bd.Token] = true
		if got, _ := b.Route(header(bd.Token)); got != bd {
			t.Errorf("%+v: its token does not route to it", tc)
		}
	}
	if tok := b.BindAttempt("tests/a", 0, 0).Token; seen[tok] {
		t.Errorf("an attempt bound twice got a token already bound: %q", tok)
	}
}
