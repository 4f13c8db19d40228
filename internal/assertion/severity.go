package assertion

import "gopkg.in/yaml.v3"

// Severity says what a failing assertion does (docs/files.md, "More
// checks"): a critical one fails its test; a warning is reported
// everywhere and never fails it.
type Severity string

// Severities.
const (
	Critical Severity = "critical"
	Warning  Severity = "warning"
)

func (l *reader) severity(n *yaml.Node, what string) Severity {
	s, node, ok := l.Text(n, what)
	if !ok {
		return ""
	}
	switch Severity(s) {
	case Critical, Warning:
		return Severity(s)
	}
	l.Errorf(node, "%s %q is not one of critical, warning", what, s)
	return ""
}
