package decode

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"gopkg.in/yaml.v3"
)

// SupportedVersion is the newest schema version this build reads. A file
// may declare any 1.x up to it; a newer minor is an error because it may
// hold fields this build does not know (docs/files.md, "Versions").
const (
	SupportedMajor   = 1
	SupportedMinor   = 2
	SupportedVersion = "1.2"
)

// Versions are the schema versions this build reads, oldest first
// (docs/files.md, "Versions"): 1.0 AG-UI, 1.1 adds A2A targets and turns,
// 1.2 MCP targets, turns and the result and tools_list assertions.
var Versions = []string{"1.0", "1.1", "1.2"}

// Minor versions that introduced a feature.
const (
	MinorA2A = 1
	MinorMCP = 2
)

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)\.(\d+)$`) })

// IsVersion reports whether s is of the form MAJOR.MINOR.
func IsVersion(s string) bool { return versionRE().MatchString(s) }

// Version checks a file's `version` field and remembers its minor version,
// which later fields are gated on (since).
func (d *Decoder) Version(f map[string]Pair, doc *yaml.Node) {
	p, ok := f["version"]
	if !ok {
		d.Errorf(doc, `missing required field "version" (write version: %q)`, SupportedVersion)
		return
	}
	s, ok := d.Scalar(p.Val, "version", "a string")
	if !ok {
		return
	}
	m := versionRE().FindStringSubmatch(s.Value)
	if m == nil {
		d.Errorf(s, `version %q is not of the form MAJOR.MINOR (write version: %q)`, s.Value, SupportedVersion)
		return
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	switch {
	case major != SupportedMajor:
		d.Errorf(s, "version %q is not supported: this Ananke reads %d.x files (highest %s)", s.Value, SupportedMajor, SupportedVersion)
	case minor > SupportedMinor:
		d.Errorf(s, "version %q is newer than this Ananke supports (highest %s); upgrade Ananke", s.Value, SupportedVersion)
	default:
		d.declared = s.Value
		d.minor = minor
	}
}

// Since reports whether the file's version has what was added in minor,
// and otherwise reports feature at n: "target type a2a needs version
// \"1.1\" or later; this file says \"1.0\"". A file whose version is
// missing or invalid was reported already, and a file without a version
// (a dataset) takes its config's: neither is gated.
func (d *Decoder) Since(n *yaml.Node, minor int, feature string) bool {
	if d.declared == "" || d.minor >= minor {
		return true
	}
	want := fmt.Sprintf("%d.%d", SupportedMajor, minor)
	d.Errorf(n, "%s needs version %q or later; this file says %q", feature, want, d.declared)
	return false
}
