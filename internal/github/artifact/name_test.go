package artifact_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact"
)

func TestValidateName(t *testing.T) {
	tests := []struct {
		name    string
		wantErr string // "" for a valid name
	}{
		{name: "ananke-report"},
		{name: "report 2026.03.01 (linux, go1.26) #7 ü"},
		{name: "", wantErr: "artifact name is empty"},
		{name: `a"b`, wantErr: `double quote "`},
		{name: "a:b", wantErr: "colon :"},
		{name: "a<b", wantErr: "less than <"},
		{name: "a>b", wantErr: "greater than >"},
		{name: "a|b", wantErr: "vertical bar |"},
		{name: "a*b", wantErr: "asterisk *"},
		{name: "a?b", wantErr: "question mark ?"},
		{name: "a\rb", wantErr: `carriage return \r`},
		{name: "a\nb", wantErr: `line feed \n`},
		{name: `a\b`, wantErr: `backslash \`},
		{name: "a/b", wantErr: "forward slash /"},
		{name: "a/b:c", wantErr: "contains invalid characters: colon :, forward slash /"},
	}
	for _, tc := range tests {
		err := artifact.ValidateName(tc.name)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("ValidateName(%q) = %v, want nil", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ValidateName(%q) = %v, want an error containing %q", tc.name, err, tc.wantErr)
		}
	}
}
