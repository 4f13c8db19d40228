package scaffold

import (
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"

	"github.com/ananke/action/examples"
	"github.com/ananke/action/internal/spec"
)

// ExampleEndpoint is where the example agent listens unless told otherwise.
const ExampleEndpoint = "http://127.0.0.1:8765/agent"

// The quickstart config's lines that change in the copy; Example fails when
// they are no longer there, and its test says so.
const (
	exampleAddr    = "127.0.0.1:8765"
	exampleCommand = `command: ["go", "run", "../agent", "-addr", "127.0.0.1:8765"]`
	relativeSchema = "$schema=../../schema/"
)

// exampleHeader replaces the quickstart config's leading comment.
const exampleHeader = `# yaml-language-server: $schema=%s
#
# The quickstart, written by ` + "`ananke init --example`" + `: Ananke starts the example
# agent in agent/ itself (with go run, so it needs Go %s or newer), waits until it
# prints "listening on", runs the tests, and stops it.
#
#   ananke run
`

// Example returns the quickstart suite and the example agent's source,
// laid out so that `ananke run` in their directory works: the config runs
// the agent from agent/ (a module of its own, as it uses only the standard
// library) and points the target at endpoint, an http://HOST:PORT/agent URL.
func Example(endpoint string) ([]File, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "http" || u.Port() == "" || u.Path != "/agent" {
		return nil, fmt.Errorf("the example agent's endpoint must be http://HOST:PORT/agent, not %q", endpoint)
	}
	var files []File
	err = fs.WalkDir(examples.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(examples.FS, p)
		if err != nil {
			return err
		}
		f := File{Path: p, Data: b, Mode: 0o644}
		switch {
		case strings.HasPrefix(p, "agent/"):
			if strings.HasSuffix(p, "_test.go") {
				return nil
			}
		case p == "quickstart/"+ConfigFile:
			f.Path = ConfigFile
			if f.Data, err = exampleConfig(string(b), u.Host, endpoint); err != nil {
				return err
			}
		default:
			f.Path = strings.TrimPrefix(p, "quickstart/")
			f.Data = []byte(strings.Replace(string(f.Data), relativeSchema, "$schema="+spec.SchemaBaseURL, 1))
		}
		if strings.HasSuffix(p, ".sh") {
			f.Mode = 0o755
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("example files: %w", err)
	}
	mod := fmt.Sprintf("// The example agent, copied by `ananke init --example`: a module of its own\n// (it uses only the standard library), so `go run .` builds it here.\nmodule ananke-example-agent\n\ngo %s\n", examples.GoVersion)
	files = append(files, File{Path: "agent/go.mod", Data: []byte(mod), Mode: 0o644})
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// exampleConfig rewrites the quickstart config for its new place: its own
// header, the agent started from agent/ and listening at addr.
func exampleConfig(s, addr, endpoint string) ([]byte, error) {
	_, body, ok := strings.Cut(s, "version:")
	if !ok || !strings.Contains(body, exampleCommand) || strings.Count(body, exampleAddr) != 2 {
		return nil, fmt.Errorf("examples/quickstart/%s changed: update scaffold.Example", ConfigFile)
	}
	indent := "\n    "
	body = strings.Replace(body, exampleCommand, `command: ["go", "run", ".", "-addr", "127.0.0.1:8765"]`+
		indent+`cwd: agent`+indent+`env: { GOWORK: "off" } # agent/ is a module of its own`, 1)
	body = strings.Replace(body, quote("http://"+exampleAddr+"/agent"), quote(endpoint), 1)
	body = strings.ReplaceAll(body, exampleAddr, addr)
	version := strings.TrimSuffix(examples.GoVersion, ".0")
	return []byte(fmt.Sprintf(exampleHeader, spec.SchemaBaseURL+spec.SchemaFile("config"), version) + "version:" + body), nil
}
