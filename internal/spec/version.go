package spec

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"gopkg.in/yaml.v3"
)

// SupportedVersion is the newest schema version this build reads. A file
// may declare any 1.x up to it; the seed's schema-versioning rules make a
// newer minor an error because it may hold fields this build does not know.
const (
	supportedMajor   = 1
	supportedMinor   = 2
	SupportedVersion = "1.2"
)

// Versions are the schema versions this build reads, oldest first (seed
// 001, "Version History"): 1.0 AG-UI, 1.1 adds A2A targets and turns, 1.2
// MCP targets, turns and the result and tools_list assertions.
var Versions = []string{"1.0", "1.1", "1.2"}

// Minor versions that introduced a feature.
const (
	minorA2A = 1
	minorMCP = 2
)

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)\.(\d+)$`) })

// version checks a file's `version` field and remembers its minor version,
// which later fields are gated on (since).
func (l *loader) version(f map[string]pair, doc *yaml.Node) {
	p, ok := f["version"]
	if !ok {
		l.errorf(doc, `missing required field "version" (write version: %q)`, SupportedVersion)
		return
	}
	s, ok := l.scalar(p.val, "version", "a string")
	if !ok {
		return
	}
	m := versionRE().FindStringSubmatch(s.Value)
	if m == nil {
		l.errorf(s, `version %q is not of the form MAJOR.MINOR (write version: %q)`, s.Value, SupportedVersion)
		return
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	switch {
	case major != supportedMajor:
		l.errorf(s, "version %q is not supported: this Ananke reads %d.x files (highest %s)", s.Value, supportedMajor, SupportedVersion)
	case minor > supportedMinor:
		l.errorf(s, "version %q is newer than this Ananke supports (highest %s); upgrade Ananke", s.Value, SupportedVersion)
	default:
		l.declared = s.Value
		l.minor = minor
	}
}

// since reports whether the file's version has what was added in minor,
// and otherwise reports feature at n: "target type a2a needs version
// \"1.1\" or later; this file says \"1.0\"". A file whose version is
// missing or invalid was reported already, and a file without a version
// (a dataset) takes its config's: neither is gated.
func (l *loader) since(n *yaml.Node, minor int, feature string) bool {
	if l.declared == "" || l.minor >= minor {
		return true
	}
	want := fmt.Sprintf("%d.%d", supportedMajor, minor)
	l.errorf(n, "%s needs version %q or later; this file says %q", feature, want, l.declared)
	return false
}
