package spec

import (
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// SupportedVersion is the newest schema version this build reads. A file
// may declare any 1.x up to it; the seed's schema-versioning rules make a
// newer minor an error because it may hold fields this build does not know.
const (
	supportedMajor   = 1
	supportedMinor   = 0
	SupportedVersion = "1.0"
)

var versionRE = regexp.MustCompile(`^(\d+)\.(\d+)$`)

// version checks a file's `version` field.
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
	m := versionRE.FindStringSubmatch(s.Value)
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
	}
}
