package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestResolveVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name                    string
		stampedV, stampedC      string
		bi                      *debug.BuildInfo
		wantVersion, wantCommit string
	}{
		{"release build", "v1.2.3", "0123abc", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v1.2.3", "0123abc"},
		{"stamped wins over build info", "v1.2.3", "0123abc", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: vcs("fff", "false")}, "v1.2.3", "0123abc"},
		{"go install at a version", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0", ""},
		{"build in a clean checkout", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("89abcdef", "false")}, "dev", "89abcdef"},
		{"build in a dirty checkout", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.1-0.20261122101010-89abcdef0123+dirty"}, Settings: vcs("89abcdef", "true")}, "v1.4.1-0.20261122101010-89abcdef0123+dirty", "89abcdef+dirty"},
		{"image built without a version", "", "0123abc", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev", "0123abc"},
		{"no build info", "", "", nil, "dev", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, c := resolveVersion(tt.stampedV, tt.stampedC, tt.bi)
			if v != tt.wantVersion || c != tt.wantCommit {
				t.Errorf("resolveVersion = %q, %q; want %q, %q", v, c, tt.wantVersion, tt.wantCommit)
			}
		})
	}
}

func TestVersionLine(t *testing.T) {
	build := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	if got, want := versionLine("v1.2.3", "0123abc"), "ananke v1.2.3 (commit 0123abc, "+build+")"; got != want {
		t.Errorf("versionLine = %q; want %q", got, want)
	}
	if got, want := versionLine("dev", ""), "ananke dev ("+build+")"; got != want {
		t.Errorf("versionLine = %q; want %q", got, want)
	}
}
