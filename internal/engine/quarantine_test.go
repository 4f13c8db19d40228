package engine_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
)

// TestFailFastPastQuarantine: a quarantined test that fails stops nothing
// under --fail-fast — it fails no build — while the next failure does.
func TestFailFastPastQuarantine(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), "", map[string]string{
		"a-fails":  requireSearch,
		"b-passes": "turns: [{user: hi}]\n",
		"c-fails":  requireSearch,
		"d-passes": "turns: [{user: hi}]\n",
	})
	s.Tests[0].Quarantine = &spec.Quarantine{Test: s.Tests[0].ID, Reason: "known broken"}
	var seen []string
	for _, r := range run(t, s, func(o *engine.Options) { o.FailFast = true }) {
		seen = append(seen, r.Test.Name.Value+":"+string(r.Status))
	}
	if got := strings.Join(seen, " "); got != "a-fails:fail b-passes:pass c-fails:fail d-passes:skipped" {
		t.Errorf("statuses %s", got)
	}
}
