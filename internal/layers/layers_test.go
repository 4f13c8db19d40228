package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/ananke/action"

// pkg is what the rules read of a package (go list -json).
type pkg struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Deps       []string
	Standard   bool
}

// importRule forbids packages matching from to depend on packages matching to.
type importRule struct {
	from, to func(string) bool
	why      string
}

// protocols are the packages that speak a protocol, and the table that
// picks among them.
var protocols = []string{module + "/internal/agui", module + "/internal/a2a", module + "/internal/mcp", module + "/internal/openai",
	module + "/internal/httpapi", module + "/internal/target/registry"}

// backendServers are the servers Ananke runs behind the agent (the tool
// doubles' MCP server, the model gateway, the OTLP receiver): their file
// models (decl, under them) are the file model's, the servers the command
// line's; the engine knows the receiver's span store alone.
var backendServers = []string{module + "/internal/doubles", module + "/internal/gateway", module + "/internal/otel/receiver"}

func exactly(paths ...string) func(string) bool {
	return func(p string) bool { return slices.Contains(paths, p) }
}

func under(prefix string) func(string) bool {
	return func(p string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }
}

func anyOf(paths ...string) func(string) bool {
	return func(p string) bool {
		return slices.ContainsFunc(paths, func(q string) bool { return under(q)(p) })
	}
}

var importRules = []importRule{
	{
		from: func(p string) bool { return under(module+"/internal")(p) && !under(module+"/internal/cli")(p) },
		to:   under(module + "/reporters"),
		why:  "internal packages must not depend on reporters (reporters read the report model)",
	},
	{from: under(module + "/internal/engine"), to: anyOf(protocols...), why: "the engine drives every protocol through target.Session"},
	{from: under(module + "/internal/trace"), to: anyOf(protocols...), why: "the trace recorder is protocol-neutral"},
	{from: func(p string) bool { return p == module+"/internal/target" }, to: anyOf(protocols...), why: "the seam names no protocol; internal/target/registry picks them"},
	{
		from: anyOf(module+"/internal/assertion", module+"/internal/spec"),
		to:   anyOf(append([]string{module + "/internal/target"}, protocols...)...),
		why:  "the file model and the assertion kinds depend on no protocol, nor on the seam",
	},
	{
		from: anyOf(module+"/internal/engine", module+"/internal/trace", module+"/internal/target", module+"/internal/assertion", module+"/internal/spec"),
		to:   exactly(backendServers...),
		why:  "the servers behind the agent are the command line's to start; the engine, the trace and the file model know only internal/backend, the span store and the servers' file models",
	},
}

// processReads are the process's own values: only internal/cli and main
// packages may name them. time.Now may be named, not called, elsewhere: as
// the default of an injected clock (`if now == nil { now = time.Now }`).
var processReads = map[string][]string{
	"os":   {"Getenv", "LookupEnv", "Environ", "Args", "Stdout", "Stderr", "Stdin", "Exit", "Getwd", "Chdir"},
	"time": {"Now", "Since", "Until"},
	"fmt":  {"Print", "Printf", "Println"}, // the standard output, unnamed
	"log":  {"Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln"},
}

// importViolations applies importRules to pkgs.
func importViolations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		for _, r := range importRules {
			if !r.from(p.ImportPath) {
				continue
			}
			for _, d := range p.Deps {
				if r.to(d) {
					out = append(out, fmt.Sprintf("%s depends on %s: %s", p.ImportPath, d, r.why))
				}
			}
		}
	}
	return out
}

// processViolations reports every use of processReads in the non-test
// files of pkgs other than internal/cli and main packages.
func processViolations(pkgs []pkg) ([]string, error) {
	var out []string
	for _, p := range pkgs {
		if p.Name == "main" || under(module+"/internal/cli")(p.ImportPath) {
			continue
		}
		for _, f := range p.GoFiles {
			v, err := fileProcessReads(filepath.Join(p.Dir, f))
			if err != nil {
				return nil, err
			}
			out = append(out, v...)
		}
	}
	return out, nil
}

func fileProcessReads(path string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	names := map[string]string{} // local name → import path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := processReads[p]; !ok {
			continue
		}
		name := p
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = p
	}
	called := map[*ast.SelectorExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
				called[sel] = true
			}
		}
		return true
	})
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		p, ok := names[id.Name]
		if !ok || !slices.Contains(processReads[p], sel.Sel.Name) || (p == "time" && sel.Sel.Name == "Now" && !called[sel]) {
			return true
		}
		out = append(out, fmt.Sprintf("%s: %s.%s: only internal/cli touches the process", fset.Position(sel.Pos()), p, sel.Sel.Name))
		return true
	})
	return out, nil
}

// list runs go list -deps -json on patterns from dir.
func list(t *testing.T, dir string, patterns ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json=ImportPath,Name,Dir,GoFiles,Deps,Standard"}, patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	for dec := json.NewDecoder(bytes.NewReader(b)); ; {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if !p.Standard && under(module)(p.ImportPath) {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found none of the module's packages")
	}
	return pkgs
}

// TestLayers checks every rule against the module: the import rules on all
// its packages, the process rule on the packages of the ananke binary.
func TestLayers(t *testing.T) {
	for _, v := range importViolations(list(t, "../..", "./...")) {
		t.Error(v)
	}
	bin := list(t, "../..", "./cmd/ananke")
	if !slices.ContainsFunc(bin, func(p pkg) bool { return p.ImportPath == module+"/internal/engine" }) {
		t.Fatal("the ananke binary's packages do not include internal/engine: the listing is wrong")
	}
	vs, err := processViolations(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Error(v)
	}
}

// TestLayersCatch: each rule fails on a deliberate violation (the module in
// testdata/violations breaks every one).
func TestLayersCatch(t *testing.T) {
	pkgs := list(t, "testdata/violations", "./...")
	imports := importViolations(pkgs)
	process, err := processViolations(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(append(imports, process...), "\n")
	for _, want := range []string{
		"internal/normalized depends on " + module + "/reporters/console",
		"internal/engine depends on " + module + "/internal/agui",
		"internal/engine depends on " + module + "/internal/mcp", // through internal/target
		"internal/target depends on " + module + "/internal/mcp",
		"internal/spec depends on " + module + "/internal/target",
		"internal/trace depends on " + module + "/internal/agui",
		"internal/spec depends on " + module + "/internal/gateway:",
		"clock.go:9:9: time.Now",
		"env.go:13:6: os.Getenv",
		"env.go:14:12: os.Stdout",  // under another name
		"env.go:11:2: fmt.Println", // the standard output, unnamed
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no violation %q among:\n%s", want, got)
		}
	}
	if strings.Contains(got, "/internal/gateway/decl") {
		t.Errorf("a dependency on a backend server's file model reported, but it is allowed:\n%s", got)
	}
	if strings.Contains(got, "/internal/cli/") || strings.Contains(got, "internal/cli depends") || strings.Contains(got, "main.go") || strings.Contains(got, "default.go") {
		t.Errorf("internal/cli, a main package or a default clock reported, but they are allowed:\n%s", got)
	}
}
