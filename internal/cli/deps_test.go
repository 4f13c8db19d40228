package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// unlinked are what the binary must not link — modules, or packages by
// import path prefix — and why (docs/performance.md, "Start-up"): each
// package that initialises something costs every run its pages of the
// binary.
var unlinked = []struct{ module, pkgs, why string }{
	{module: "google.golang.org/grpc", why: "gRPC: Ananke speaks A2A over JSON-RPC"},
	{module: "google.golang.org/protobuf", why: "protobuf: Ananke speaks A2A over JSON-RPC"},
	{module: "google.golang.org/genproto/googleapis/api", why: "genproto: Ananke speaks A2A over JSON-RPC"},
	{module: "google.golang.org/genproto/googleapis/rpc", why: "genproto: Ananke speaks A2A over JSON-RPC"},
	{module: "github.com/a2aproject/a2a-go", why: "the A2A 0.3 SDK: internal/a2a speaks 0.3 itself"},
	{pkgs: "github.com/a2aproject/a2a-go/v2/a2acompat/", why: "the SDK's A2A 0.3 compatibility, which links gRPC: internal/a2a speaks 0.3 itself"},
	{pkgs: "github.com/a2aproject/a2a-go/v2/a2agrpc", why: "the SDK's gRPC transport"},
}

// TestStartupDependencies: the binary (cmd/ananke, and the module root's
// main package, the same program) links none of the above, which cost
// every run 4.5 MB of memory at start-up and the binary 4.8 MB.
func TestStartupDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}", "./cmd/ananke", ".")
	cmd.Dir = repoRoot()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/ananke .: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if !strings.Contains(string(out), "\ngithub.com/a2aproject/a2a-go/v2/a2aclient github.com/a2aproject/a2a-go/v2\n") {
		t.Fatalf("go list -deps ./cmd/ananke . listed %d packages, without the A2A SDK's client:\n%s", len(lines), out)
	}
	for _, u := range unlinked {
		var linked []string
		for _, line := range lines {
			pkg, module, _ := strings.Cut(line, " ")
			if u.module != "" && module == u.module || u.pkgs != "" && strings.HasPrefix(pkg, u.pkgs) {
				linked = append(linked, pkg)
			}
		}
		if len(linked) > 0 {
			t.Errorf("the binary links %d packages of %s%s (%s): `go mod why %s` says what brings them",
				len(linked), u.module, u.pkgs, u.why, linked[0])
		}
	}
}
