package spec

import (
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/doubles/decl"
	gwdecl "github.com/ananke/action/internal/gateway/decl"
)

// TestBackendKey: a test file's backend: is read, and what contradicts
// backend: false (or backend: true in a test with a source) is an error
// at its place.
func TestBackendKey(t *testing.T) {
	head := "version: \"1.2\"\nname: n\n"
	source := "source: {format: claude-transcript, path: rec/session.jsonl}\n"
	for _, tc := range []struct {
		name, src string
		noBackend bool
		errs      []string
	}{
		{name: "absent", src: head + "turns: [{user: hi}]\n"},
		{name: "false", src: head + "backend: false\nturns: [{user: hi}]\n", noBackend: true},
		{name: "true", src: head + "backend: true\nturns: [{user: hi}]\n"},
		{name: "not a boolean", src: head + "backend: off\nturns: [{user: hi}]\n",
			errs: []string{"t.ananke.yaml:3:10: backend must be true or false, not a string"}},
		{name: "false with doubles and a gateway", noBackend: true,
			src: head + "backend: false\ndoubles: {check_stock: {result: x}}\ngateway: {faults: [{call: 1, status: 429}]}\nturns:\n  - user: hi\n  - user: again\n    doubles: {check_stock: {result: y}}\n",
			errs: []string{
				"t.ananke.yaml:3:10: backend: false says the test's agent calls neither the tool doubles nor the model gateway, but the test declares doubles: (line 4); remove one of the two",
				"t.ananke.yaml:3:10: backend: false says the test's agent calls neither the tool doubles nor the model gateway, but the test declares gateway: (line 5); remove one of the two",
				"t.ananke.yaml:3:10: backend: false says the test's agent calls neither the tool doubles nor the model gateway, but turns[1] declares doubles: (line 8); remove one of the two",
			}},
		{name: "false with a source", src: head + "backend: false\n" + source, noBackend: true},
		{name: "true with a source", src: head + "backend: true\n" + source,
			errs: []string{"t.ananke.yaml:3:10: backend: true: a test with a source talks to no agent, so it never uses the backend; remove backend:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tt, diags := parseTest(t, tc.src)
			var errs []string
			for _, d := range diags {
				if !strings.Contains(d.String(), "source.path: rec/session.jsonl") { // no recording here
					errs = append(errs, d.String())
				}
			}
			if !slices.Equal(errs, tc.errs) {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(tc.errs, "\n"))
			}
			if tt.NoBackend != tc.noBackend {
				t.Errorf("NoBackend = %v, want %v", tt.NoBackend, tc.noBackend)
			}
		})
	}
}

// TestUsesBackend: a test uses the backend when the config declares
// doubles or a gateway, it has no source, and it does not say backend:
// false.
func TestUsesBackend(t *testing.T) {
	doubles := &Config{Doubles: &decl.Config{}}
	gw := &Config{Gateway: &gwdecl.Config{}}
	plain, off, recorded := &Test{}, &Test{NoBackend: true}, &Test{Source: &Source{}}
	for _, tc := range []struct {
		name string
		test *Test
		cfg  *Config
		want bool
	}{
		{"doubles", plain, doubles, true},
		{"gateway", plain, gw, true},
		{"both", plain, &Config{Doubles: &decl.Config{}, Gateway: &gwdecl.Config{}}, true},
		{"neither", plain, &Config{}, false},
		{"no config", plain, nil, false},
		{"backend: false", off, doubles, false},
		{"a source", recorded, gw, false},
	} {
		if got := tc.test.UsesBackend(tc.cfg); got != tc.want {
			t.Errorf("%s: UsesBackend = %v, want %v", tc.name, got, tc.want)
		}
	}
}
