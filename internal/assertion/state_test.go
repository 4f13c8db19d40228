package assertion

import (
	"encoding/json"
	"testing"

	"github.com/go-openapi/jsonpointer"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

func stateCheck(ptr, want string, mod ...func(*StateCheck)) Check {
	ref, err := jsonpointer.New(ptr)
	if err != nil {
		panic(err)
	}
	c := &StateCheck{Pointer: ptr, Ref: ref}
	for _, m := range mod {
		m(c)
	}
	check := Check{Kind: KindState, Payload: c}
	if want != "" {
		c.Want = json.RawMessage(want)
	}
	return check
}

func stateMatch(re string) func(*StateCheck) {
	return func(c *StateCheck) { c.Match = vars.MustRegex(re) }
}

func stateExists(v bool) func(*StateCheck) { return func(c *StateCheck) { c.Exists = &v } }

// withState is a turn whose agent state ended as state, set by a snapshot
// (seq 5) and a delta (seq 6).
func withState(state string) trace.Scope {
	t := turnOf("")
	t.State = json.RawMessage(state)
	t.Events = []trace.Event{{Seq: 4, Type: "RUN_STARTED"}, {Seq: 5, Type: "STATE_SNAPSHOT"}, {Seq: 6, Type: "STATE_DELTA"}}
	return scopeOf(t)
}

func TestState(t *testing.T) {
	cart := withState(`{"cart": {"total": 90, "items": [{"sku": "A-1"}], "note": null}, "status": "done"}`)
	runCases(t, []evalCase{
		{"equals number", stateCheck("/cart/total", `90.0`), cart, status.Pass, "state /cart/total is 90"},
		{"equals object", stateCheck("/cart/items/0", `{"sku": "A-1"}`), cart, status.Pass, ""},
		{"match string", stateCheck("/status", "", stateMatch("^done$")), cart, status.Pass, `state /status is "done"`},
		{"match compact JSON", stateCheck("/cart/items", "", stateMatch(`^\[\{"sku":"A-1"\}\]$`)), cart, status.Pass, ""},
		{"match fails", stateCheck("/status", "", stateMatch("^pending$")), cart, status.Fail, `state /status is "done", which does not match` + " `^pending$`"},
		{"exists", stateCheck("/cart/total", "", stateExists(true)), cart, status.Pass, ""},
		{"null exists", stateCheck("/cart/note", "", stateExists(true)), cart, status.Pass, "state /cart/note is null"},
		{"exists false", stateCheck("/cart/coupon", "", stateExists(false)), cart, status.Pass, "nothing at state /cart/coupon"},
		{"missing", stateCheck("/cart/coupon", `"SAVE10"`), cart, status.Fail, "state /cart/coupon is missing"},
		{"index out of range", stateCheck("/cart/items/3", "", stateExists(true)), cart, status.Fail, "state /cart/items/3 is missing"},
		{"whole state", stateCheck("", `{"cart": {"total": 90, "items": [{"sku": "A-1"}], "note": null}, "status": "done"}`), cart, status.Pass, "the whole state is"},
		{"no state: the whole state is null", stateCheck("", `null`), withState(""), status.Pass, "the whole state is null"},
		{"no state: exists false", stateCheck("/cart", "", stateExists(false)), withState(""), status.Pass, ""},
		{"state not JSON", stateCheck("/cart", "", stateExists(true)), withState("{oops"), status.Fail, "the state after turn[0] is not JSON"},
	})
	runExact(t, []exactCase{
		{"equals fails", stateCheck("/cart/total", `89.5`), cart, status.Fail, "state /cart/total is 90, expected 89.5"},
		{"exists false fails", stateCheck("/status", "", stateExists(false)), cart, status.Fail, `state /status is "done", expected nothing there`},
		{"no state", stateCheck("/cart/total", `89.5`), withState(""), status.Fail, "state /cart/total is missing: the agent sent no state in turn[0]"},
	})
	r := evalOne(t, stateCheck("/cart/total", `89.5`), cart)
	if len(r.EventRefs) != 2 || !hasRefs(r, 5, 6) {
		t.Errorf("EventRefs = %v; want the state events [5 6]", r.EventRefs)
	}
	if want := `{"cart":{"items":[{"sku":"A-1"}],"note":null,"total":90},"status":"done"}`; len(r.Evidence) != 1 || r.Evidence[0].Text != want {
		t.Errorf("evidence %+v; want the state as compact JSON", r.Evidence)
	}
	if r.Expected != "state /cart/total equals 89.5" || r.Observed != "90" {
		t.Errorf("Expected %q, Observed %q", r.Expected, r.Observed)
	}
}
