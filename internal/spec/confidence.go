package spec

import "github.com/ananke/action/internal/decode"

// The confidence level of the intervals reports give for pass rates and
// failure rates (docs/statistics.md), in percent: below 50% an interval
// says next to nothing, and at 100% it is the whole of 0–100%.
const (
	DefaultConfidence = 95
	MinConfidence     = 50
	MaxConfidence     = 99.9
)

// confidenceSchema is the published schema of the config's confidence.
func confidenceSchema() decode.Obj {
	return decode.Obj{"type": "number", "minimum": MinConfidence, "maximum": MaxConfidence,
		"description": "Confidence level, in percent, of the intervals reports give for each test's pass rate and pass^k and each assertion's failure rate (default 95)."}
}

// ConfidenceLevel is the config's confidence level in percent: its
// confidence field, else DefaultConfidence.
func (c *Config) ConfidenceLevel() float64 {
	if c == nil || c.Confidence == 0 {
		return DefaultConfidence
	}
	return c.Confidence
}

// confidence reads the config's confidence: a percentage from
// MinConfidence to MaxConfidence (0 when it is not one).
func (l *loader) confidence(f map[string]decode.Pair) float64 {
	p, ok := f["confidence"]
	if !ok {
		return 0
	}
	v, n, ok := l.Number(p.Val, "confidence")
	if !ok {
		return 0
	}
	if v < MinConfidence || v > MaxConfidence {
		l.Errorf(n, "confidence must be a percentage from %g to %g, got %s", float64(MinConfidence), MaxConfidence, n.Value)
		return 0
	}
	return v
}
