package spec

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestJudges: the config's judges: with its values and defaults, and
// the calibration file's path relative to the config.
func TestJudges(t *testing.T) {
	c := mustConfig(t, minimalConfig+"judges:\n  calibration: cal/judges.json\n  gate: {min_kappa: 0.7, min_accuracy: 85, min_labels: 20}\n")
	j := c.Judges
	if j == nil || j.Gate == nil {
		t.Fatalf("judges %+v", j)
	}
	if j.Calibration != "cal/judges.json" || *j.Gate != (JudgeGate{Pos: j.Gate.Pos, MinKappa: 0.7, MinAccuracy: 85, MinLabels: 20}) || j.Pos.Line != 7 || j.Gate.Pos.Line != 8 {
		t.Errorf("judges %+v, gate %+v", j, j.Gate)
	}
	if got := c.CalibrationFile(); got != filepath.Join(c.Dir, "cal", "judges.json") {
		t.Errorf("calibration file %s", got)
	}
	d := mustConfig(t, minimalConfig+"judges: {gate: {}}\n")
	if g := d.Judges.Gate; g.MinKappa != DefaultMinKappa || g.MinLabels != DefaultMinLabels || g.MinAccuracy != 0 {
		t.Errorf("defaults %+v", g)
	}
	if got := d.CalibrationFile(); got != filepath.Join(d.Dir, ".ananke", "calibration.json") {
		t.Errorf("default calibration file %s", got)
	}
	if n := mustConfig(t, minimalConfig+"judges: {calibration: c.json}\n"); n.Judges.Gate != nil {
		t.Error("a judges: section without gate: gates")
	}
	if n := mustConfig(t, minimalConfig); n.Judges != nil || n.CalibrationFile() != filepath.Join(n.Dir, ".ananke", "calibration.json") {
		t.Errorf("no judges: %+v %s", n.Judges, n.CalibrationFile())
	}
}

// TestJudgesErrors: each wrong value is an error at its position.
func TestJudgesErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"judges: {gate: {min_kappa: 1.5}}\n", "ananke.config.yaml:6:28: judges.gate.min_kappa must be from 0 to 1"},
		{"judges: {gate: {min_kappa: high}}\n", "ananke.config.yaml:6:28: judges.gate.min_kappa must be a number"},
		{"judges: {gate: {min_accuracy: 120}}\n", "ananke.config.yaml:6:31: judges.gate.min_accuracy must be a percentage from 0 to 100"},
		{"judges: {gate: {min_labels: 0}}\n", "ananke.config.yaml:6:29: judges.gate.min_labels must be between 1 and 1000000"},
		{"judges: {gate: {min_kapa: 0.5}}\n", "min_kapa"},
		{"judges: {calibration: \"\"}\n", "ananke.config.yaml:6:23: judges.calibration must not be empty"},
		{"judges: {calibrate: x}\n", "calibrate"},
		{"judges: [gate]\n", "judges"},
	} {
		_, diags := parseConfig(t, minimalConfig+tc.src)
		if !strings.Contains(diags.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, diags, tc.want)
		}
	}
}
