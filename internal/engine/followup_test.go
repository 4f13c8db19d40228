package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
)

// seen collects the ids of the tests an observer is told of.
type seen struct {
	mu  sync.Mutex
	ids []string
}

func (s *seen) TestFinished(r *engine.TestResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = append(s.ids, r.Test.ID)
}

func (s *seen) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(slices.Values(s.ids))
}

// attackCopy is a copy of t run as an attack run planting payload in its
// first user message.
func attackCopy(t *spec.Test) *spec.Test {
	c := *t
	c.ID = t.ID + "@attack/user/x"
	c.Attack = &plant.Plant{Channel: plant.User, Payload: payload}
	return &c
}

// TestFollowup: the tests Options.Followup gives run once the suite's
// finished (and before after_all), with the before_all variables, and
// even under --fail-fast after a failure; Followup sees every result of
// the suite; their results are Outcome.Followup, told to
// FollowupObserver alone, never Outcome.Tests nor Observer.
func TestFollowup(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s, dir := suiteFiles(t, srv.Endpoint(), "before_all: [{cmd: [./token.sh]}]\nafter_all: [{cmd: [./record.sh, out.json]}]\n", map[string]string{
		"record.sh":     record,
		"token.sh":      "#!/bin/sh\necho '{\"TOKEN\": \"t-42\"}'\n",
		"a.ananke.yaml": "version: \"1.0\"\nname: a\nturns: [{user: \"token ${TOKEN}\", assert: {text: {contains: \"t-42\"}}}]\n",
		"b.ananke.yaml": "version: \"1.0\"\nname: b\nturns: [{user: \"hello\", assert: {text: {contains: \"nope\"}}}]\n",
	})
	var observed, followed seen
	var asked [][]string // the results Followup saw: id and status
	var requestsBefore int
	opts := engineOptions(s, func(o *engine.Options) {
		o.FailFast = true
		o.Observer, o.FollowupObserver = &observed, &followed
		o.Followup = func(done []*engine.TestResult) []*spec.Test {
			var got []string
			for _, r := range done {
				got = append(got, r.Test.ID+" "+string(r.Status))
			}
			asked = append(asked, got)
			requestsBefore = len(srv.Requests())
			if _, err := os.Stat(filepath.Join(dir, "out.json")); err == nil {
				t.Error("after_all ran before the follow-up")
			}
			// Both a failing test and a passing one, the failing first:
			// --fail-fast does not stop the follow-up.
			return []*spec.Test{attackCopy(s.Tests[1]), attackCopy(s.Tests[0])}
		}
	})
	out := engine.Run(context.Background(), opts)

	if len(asked) != 1 || !slices.Equal(asked[0], []string{"a pass", "b fail"}) {
		t.Fatalf("Followup saw %q; want once, every result of the suite", asked)
	}
	if len(out.Tests) != 2 || out.Tests[0].Test.ID != "a" || out.Tests[1].Test.ID != "b" {
		t.Fatalf("Tests = %v; want the suite's alone", out.Tests)
	}
	if len(out.Followup) != 2 {
		t.Fatalf("Followup = %v; want the two follow-up tests", out.Followup)
	}
	fb, fa := out.Followup[0], out.Followup[1]
	if fb.Test.ID != "b@attack/user/x" || fb.Status != status.Fail || fa.Test.ID != "a@attack/user/x" || fa.Status != status.Pass {
		t.Errorf("follow-up results %s %s %q, %s %s %q; want b's failing, a's passing with the before_all token",
			fb.Test.ID, fb.Status, fb.Reason, fa.Test.ID, fa.Status, fa.Reason)
	}
	if got := fa.Shown().Trace.Turns[0].UserText; got != "token t-42\n\n"+payload {
		t.Errorf("the follow-up sent %q; want its message with the before_all variable and the payload", got)
	}
	if got := len(srv.Requests()) - requestsBefore; got != 2 {
		t.Errorf("%d requests after Followup was asked; want the follow-up's 2", got)
	}
	if got := observed.list(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Observer saw %q; want the suite's tests alone", got)
	}
	if got := followed.list(); !slices.Equal(got, []string{"a@attack/user/x", "b@attack/user/x"}) {
		t.Errorf("FollowupObserver saw %q; want the follow-up tests alone", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.json")); err != nil {
		t.Errorf("after_all did not run: %v", err)
	}
}

// TestFollowupNotAskedWhenCancelled: a cancelled run asks for no
// follow-up, and has none.
func TestFollowupNotAskedWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := aguitest.New(t, func(*aguitest.Request) aguitest.Response {
		cancel() // the run is in flight
		return aguitest.Response{Hang: true}
	})
	s := suite(t, srv.Endpoint(), "", map[string]string{"a": "turns: [{user: hi}]\n"})
	var asked atomic.Bool
	opts := engineOptions(s, func(o *engine.Options) {
		o.Followup = func([]*engine.TestResult) []*spec.Test {
			asked.Store(true)
			return []*spec.Test{attackCopy(s.Tests[0])}
		}
	})
	out := engine.Run(ctx, opts)
	if r := one(t, out.Tests); r.Status != status.Error || !strings.Contains(r.Reason, "cancelled") {
		t.Fatalf("the suite's test: %s %q; want cancelled", r.Status, r.Reason)
	}
	if asked.Load() || out.Followup != nil {
		t.Errorf("a cancelled run asked for a follow-up (%v) or ran one: %v", asked.Load(), out.Followup)
	}
}

// TestFollowupNone: a follow-up of no test runs nothing.
func TestFollowupNone(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), "", map[string]string{"a": "turns: [{user: hi}]\n"})
	var followed seen
	out := engine.Run(context.Background(), engineOptions(s, func(o *engine.Options) {
		o.FollowupObserver = &followed
		o.Followup = func([]*engine.TestResult) []*spec.Test { return nil }
	}))
	if len(out.Tests) != 1 || out.Followup != nil || len(followed.list()) != 0 || len(srv.Requests()) != 1 {
		t.Errorf("tests %d, follow-up %v, observed %q, requests %d; want the suite's test alone", len(out.Tests), out.Followup, followed.list(), len(srv.Requests()))
	}
}
