package cli

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/replay"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target/registry"
)

// tape makes the engine's tape for --record or --replay; done, called with
// the report, writes the recording. Neither flag: a nil tape.
func (a *app) tape(o runOptions, suite *spec.Suite) (tape engine.Tape, done func(*report.Report) error, err error) {
	switch {
	case o.record != "" && o.replay != "":
		return nil, nil, fmt.Errorf("--record and --replay cannot be used together")
	case (o.record != "" || o.replay != "") && !registry.CanRecord(suite.Config.Target.Type):
		return nil, nil, fmt.Errorf("--record and --replay work with %s targets; this target is %s", strings.Join(registry.Recordable(), " and "), suite.Config.Target.Type)
	case o.record != "":
		rec, err := replay.NewRecorder(o.record, a.now)
		if err != nil {
			return nil, nil, err
		}
		return rec, func(r *report.Report) error {
			mask := report.ConfigRedactor(r.MaskValues(), suite.Config)
			meta := replay.Meta{Version: Version(), Target: replay.Target{Type: r.Target.Type, Endpoint: r.Target.Endpoint, AgentID: r.Target.AgentID}}
			if err := rec.Write(suite, meta, mask.String); err != nil {
				return err
			}
			fmt.Fprintf(a.Out, "Recording: %s\n", o.record)
			return nil
		}, nil
	case o.replay != "":
		p, err := replay.Open(o.replay, a.now)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range p.Changed(suite) {
			a.warn("", fmt.Errorf("note: %s changed since it was recorded; a request that differs is an error", f))
		}
		return p, func(*report.Report) error { return nil }, nil
	}
	return nil, func(*report.Report) error { return nil }, nil
}
