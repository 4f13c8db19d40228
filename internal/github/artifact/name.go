package artifact

import (
	"errors"
	"fmt"
	"strings"
)

// invalidNameChars are the characters the artifact service refuses in a
// name, as actions/toolkit lists them
// (packages/artifact/src/internal/upload/path-and-artifact-name-validation.ts).
var invalidNameChars = []struct{ char, label string }{
	{`"`, `double quote "`},
	{":", "colon :"},
	{"<", "less than <"},
	{">", "greater than >"},
	{"|", "vertical bar |"},
	{"*", "asterisk *"},
	{"?", "question mark ?"},
	{"\r", `carriage return \r`},
	{"\n", `line feed \n`},
	{`\`, `backslash \`},
	{"/", "forward slash /"},
}

// ValidateName reports why name cannot be an artifact name (nil when it
// can). Checking before CreateArtifact turns a service error after the
// report was zipped into a clear message up front.
func ValidateName(name string) error {
	if name == "" {
		return errors.New("artifact name is empty")
	}
	var bad []string
	for _, c := range invalidNameChars {
		if strings.Contains(name, c.char) {
			bad = append(bad, c.label)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("artifact name %q contains invalid characters: %s", name, strings.Join(bad, ", "))
	}
	return nil
}
