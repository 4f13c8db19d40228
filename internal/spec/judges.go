package spec

import (
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// Judges and their calibration (docs/judges.md): the config's judges:
// section.

// Defaults of the judges: section.
const (
	// DefaultCalibrationFile is where `ananke judge calibrate` writes and
	// the gate reads the calibrations, relative to the config.
	DefaultCalibrationFile = ".ananke/calibration.json"
	DefaultMinKappa        = 0.6
	DefaultMinLabels       = 10
)

// Judges is the config's judges: section.
type Judges struct {
	Pos diag.Pos
	// Calibration is the calibration file as written, relative to the
	// config ("" when not written: DefaultCalibrationFile).
	Calibration string
	// Gate, when set, lets a critical judge fail the build only when its
	// criteria are calibrated under its model and prompt and meet the
	// thresholds; nil: judges gate as their severity says.
	Gate *JudgeGate
}

// JudgeGate is judges.gate: what a criterion's calibration must meet.
type JudgeGate struct {
	Pos      diag.Pos
	MinKappa float64
	// MinAccuracy is a percentage; 0 asks none.
	MinAccuracy float64
	MinLabels   int
}

var (
	judgesFields    = []string{"calibration", "gate"}
	judgeGateFields = []string{"min_kappa", "min_accuracy", "min_labels"}
)

// CalibrationFile is the path of the calibration file: judges.calibration
// or DefaultCalibrationFile, relative to the config's directory.
func (c *Config) CalibrationFile() string {
	name := DefaultCalibrationFile
	if c.Judges != nil && c.Judges.Calibration != "" {
		name = c.Judges.Calibration
	}
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(c.Dir, filepath.FromSlash(name))
}

// judges reads the config's judges: section; nil when it is not a
// mapping.
func (l *loader) judges(n *yaml.Node) *Judges {
	f, ok := l.Fields(n, "judges", judgesFields)
	if !ok {
		return nil
	}
	j := &Judges{Pos: l.Pos(l.DerefQuiet(n))}
	if p, ok := f["calibration"]; ok {
		if name, ok := l.Name(p.Val, "judges.calibration"); ok {
			j.Calibration = name.Value
		}
	}
	if p, ok := f["gate"]; ok {
		j.Gate = l.judgeGate(p.Val)
	}
	return j
}

func (l *loader) judgeGate(n *yaml.Node) *JudgeGate {
	f, ok := l.Fields(n, "judges.gate", judgeGateFields)
	if !ok {
		return nil
	}
	g := &JudgeGate{Pos: l.Pos(l.DerefQuiet(n)), MinKappa: DefaultMinKappa, MinLabels: DefaultMinLabels}
	if p, ok := f["min_kappa"]; ok {
		if v, node, ok := l.Number(p.Val, "judges.gate.min_kappa"); ok {
			if v < 0 || v > 1 {
				l.Errorf(node, "judges.gate.min_kappa must be from 0 to 1 (kappa is 1 for a judge that always agrees with the labels, 0 for one no better than chance), got %s", node.Value)
			} else {
				g.MinKappa = v
			}
		}
	}
	if p, ok := f["min_accuracy"]; ok {
		if v, ok := l.percent(p.Val, "judges.gate.min_accuracy"); ok {
			g.MinAccuracy = v
		}
	}
	if p, ok := f["min_labels"]; ok {
		if v, ok := l.Integer(p.Val, "judges.gate.min_labels", 1, 1_000_000); ok {
			g.MinLabels = int(v)
		}
	}
	return g
}

// judgesSchema is the published schema of the judges: section.
func judgesSchema() decode.Obj {
	return decode.Object("Judges' calibration against human labels, and when a critical judge may fail the build (docs/judges.md).", judgesFields, decode.Obj{
		"calibration": decode.Str("The calibration file ananke judge calibrate writes and the gate reads, relative to the config (default " + DefaultCalibrationFile + ")."),
		"gate": decode.Object("A critical judge fails the build only when each of its criteria has a calibration under its model and prompt meeting these; otherwise its verdicts are warnings, with the reason. Absent: judges gate as their severity says.", judgeGateFields, decode.Obj{
			"min_kappa":    decode.Obj{"type": "number", "minimum": 0, "maximum": 1, "description": "The least Cohen's kappa of the judge against the labels (default 0.6)."},
			"min_accuracy": decode.Obj{"type": "number", "minimum": 0, "maximum": 100, "description": "The least accuracy, in percent, of the judge against the labels (default: none)."},
			"min_labels":   decode.Obj{"type": "integer", "minimum": 1, "maximum": 1_000_000, "description": "The fewest labels a calibration may rest on (default 10)."},
		}),
	})
}
