package attack_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ananke/action/internal/attack"
	"github.com/ananke/action/internal/spec"
)

// load reads the suite of config (in testdata/sites) with the tests
// named (their files' stems under tests/).
func load(t *testing.T, config string, tests ...string) *spec.Suite {
	t.Helper()
	dir := filepath.Join("testdata", "sites")
	var paths []string
	for _, name := range tests {
		paths = append(paths, filepath.Join(dir, "tests", name+".ananke.yaml"))
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, config), Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tests) != len(tests) {
		t.Fatalf("%d tests loaded, want %d", len(s.Tests), len(tests))
	}
	return s
}

// sites is each site as "channel:site@file:line".
func sites(ss []attack.Site) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%s:%s@%s:%d", s.Channel, s.Site, filepath.Base(s.Pos.File), s.Pos.Line))
	}
	return out
}

// TestSites: the channel sites each test offers, found from the test and
// the config, in the channels' order, each at the place its file writes.
func TestSites(t *testing.T) {
	for _, tc := range []struct {
		config, test string
		want         []string
	}{
		{"plain.config.yaml", "client-tools", []string{
			"tool_result:lookup_order@client-tools.ananke.yaml:5", "tool_result:send_email@client-tools.ananke.yaml:7",
			"user:@client-tools.ananke.yaml:10"}},
		// The last message of the user or the assistant, not the system
		// message after it; the first user turn follows agui:connect.
		{"plain.config.yaml", "history", []string{"history:2@history.ananke.yaml:6", "user:@history.ananke.yaml:10"}},
		// Textual files once each (the history's first), not the image; the
		// first user turn has no text, so the user channel is the next's.
		{"plain.config.yaml", "attachments", []string{
			"attachment:notes.txt@attachments.ananke.yaml:7", "attachment:notes.md@attachments.ananke.yaml:10",
			"attachment:data.json@attachments.ananke.yaml:12", "history:0@attachments.ananke.yaml:4", "user:@attachments.ananke.yaml:14"}},
		{"plain.config.yaml", "simulated", []string{"simulator:@simulated.ananke.yaml:4"}},
		{"plain.config.yaml", "skipped", []string{}},
		// With tool doubles and a state: a test with answers of its own
		// reaches those tools (the config's order), another every tool with
		// a default answer; backend: false reaches none.
		{"rich.config.yaml", "doubles-own", []string{
			"double:check_stock@doubles-own.ananke.yaml:8", "double:lookup@doubles-own.ananke.yaml:4",
			"state:state@rich.config.yaml:6", "user:@doubles-own.ananke.yaml:6"}},
		{"rich.config.yaml", "client-tools", []string{
			"tool_result:lookup_order@client-tools.ananke.yaml:5", "tool_result:send_email@client-tools.ananke.yaml:7",
			"double:check_stock@rich.config.yaml:11", "double:lookup@rich.config.yaml:14",
			"state:state@rich.config.yaml:6", "user:@client-tools.ananke.yaml:10"}},
		{"rich.config.yaml", "no-backend", []string{"state:state@rich.config.yaml:6", "user:@no-backend.ananke.yaml:5"}},
	} {
		t.Run(tc.config+"/"+tc.test, func(t *testing.T) {
			s := load(t, tc.config, tc.test)
			got := sites(attack.Sites(s.Tests[0], s.Config))
			if !slices.Equal(got, tc.want) {
				t.Errorf("sites\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestSitesOfImports: a test that reads a recorded session offers no
// channel.
func TestSitesOfImports(t *testing.T) {
	s := load(t, "plain.config.yaml", "client-tools")
	tt := *s.Tests[0]
	tt.Source = &spec.Source{}
	if got := attack.Sites(&tt, s.Config); len(got) != 0 {
		t.Errorf("an imported test offers %q", sites(got))
	}
}
