package decl

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// The fields each mapping of the doubles syntax takes (docs/doubles.md).
var (
	configFields = []string{"listen", "path", "tools"}
	// replyFields answer a call: a result, or a fault.
	replyFields  = []string{"result", "result_file", "is_error", "latency_ms", "fault"}
	answerFields = append(append([]string{}, replyFields...), "match")
	matchFields  = append([]string{"args"}, replyFields...)
	toolFields   = append([]string{"name", "description", "input_schema", "output_schema"}, answerFields...)
)

// maxNameLen bounds a tool name, as MCP does.
const maxNameLen = 128

// reader reads the doubles syntax of one file through its Decoder; read
// reads the files result_file names.
type reader struct {
	*decode.Decoder
	read func(path string) ([]byte, error)
}

// newReader reads with d, and result files from the file system.
func newReader(d *decode.Decoder) *reader {
	return &reader{Decoder: d, read: func(path string) ([]byte, error) { return readLimited(path, maxResultFile) }}
}

// ReadConfig reads the config's doubles: section, reporting every problem
// at its place through d; nil when it is not a mapping.
func ReadConfig(d *decode.Decoder, n *yaml.Node) *Config { return newReader(d).config(n) }

func (d *reader) config(n *yaml.Node) *Config {
	f, ok := d.Fields(n, "doubles", configFields)
	if !ok {
		return nil
	}
	c := &Config{Pos: d.Pos(d.DerefQuiet(n)), Path: DefaultPath}
	d.Require(n, f, "doubles", "listen", "tools")
	if p, ok := f["listen"]; ok {
		c.Listen = d.listen(p.Val)
	}
	if p, ok := f["path"]; ok {
		if s, node, ok := d.Text(p.Val, "doubles.path"); ok {
			if !strings.HasPrefix(s, "/") {
				d.Errorf(node, "doubles.path %q must start with /, e.g. /mcp", s)
			} else {
				c.Path = s
			}
		}
	}
	if p, ok := f["tools"]; ok {
		items, ok := d.List(p.Val, "doubles.tools")
		if ok && len(items) == 0 {
			d.Errorf(d.DerefQuiet(p.Val), "doubles.tools is empty: declare at least one tool")
		}
		seen := map[string]diag.Pos{}
		for i, item := range items {
			t := d.readTool(item, decode.Index("doubles.tools", i))
			if t == nil {
				continue
			}
			if first, dup := seen[t.Name]; dup && t.Name != "" {
				d.Diags.Add(t.Pos, "doubles.tools[%d]: tool %q is declared twice (first at line %d)", i, t.Name, first.Line)
				continue
			}
			seen[t.Name] = t.Pos
			c.Tools = append(c.Tools, t)
		}
	}
	return c
}

// listen reads doubles.listen: host:port, checked now unless it reads
// the environment.
func (d *reader) listen(n *yaml.Node) vars.Template {
	t, ok := d.Template(n, "doubles.listen")
	if !ok {
		return t
	}
	for _, r := range t.Refs() {
		if !r.Env {
			d.Diags.Add(r.Pos, "doubles.listen may read the environment only (${ENV.NAME}): %s would be set by a hook, after the doubles start", r)
		}
	}
	if len(t.Refs()) > 0 {
		return t
	}
	if err := CheckAddr(t.Raw); err != nil {
		d.Errorf(d.DerefQuiet(n), "doubles.listen: %v", err)
	}
	return t
}

// Addr is the address to listen on: Listen with the environment it
// reads, checked.
func (c *Config) Addr(getenv func(string) (string, bool)) (string, error) {
	addr, err := c.Listen.Resolve(vars.NewVars(getenv))
	if re, ok := errors.AsType[*vars.ResolveError](err); ok {
		return "", fmt.Errorf("%s: doubles.listen: %s", re.Pos, re.Msg)
	}
	if err != nil {
		return "", fmt.Errorf("doubles.listen: %w", err)
	}
	if err := CheckAddr(addr); err != nil {
		return "", fmt.Errorf("%s: doubles.listen: %w", c.Listen.Pos, err)
	}
	return addr, nil
}

// CheckAddr says why addr is not a host:port to listen on.
func CheckAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port (e.g. 127.0.0.1:4390, or 0.0.0.0:4390 for an agent in a container)", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q: the port must be a number from 0 to 65535", addr)
	}
	return nil
}

// readTool reads one declared tool.
func (d *reader) readTool(n *yaml.Node, what string) *Tool {
	f, ok := d.Fields(n, what, toolFields)
	if !ok {
		return nil
	}
	t := &Tool{Pos: d.Pos(d.DerefQuiet(n)), InputSchema: json.RawMessage(`{"type":"object"}`)}
	d.Require(n, f, what, "name")
	if p, ok := f["name"]; ok {
		if name, ok := d.Name(p.Val, what+".name"); ok {
			if why := badToolName(name.Value); why != "" {
				d.Diags.Add(name.Pos, "%s.name %q %s", what, name.Value, why)
			}
			t.Name = name.Value
		}
	}
	if p, ok := f["description"]; ok {
		t.Description, _, _ = d.Text(p.Val, what+".description")
	}
	if p, ok := f["input_schema"]; ok {
		if raw, _, ok := d.readSchema(p.Val, what+".input_schema"); ok {
			t.InputSchema = raw
		}
	}
	if p, ok := f["output_schema"]; ok {
		if raw, s, ok := d.readSchema(p.Val, what+".output_schema"); ok {
			t.OutputSchema, t.output = raw, s
		}
	}
	if hasAny(f, answerFields) {
		t.Answer = d.readAnswer(n, f, what)
	}
	if t.Answer != nil && t.output != nil {
		checkAnswer(t, t.Answer, d.Diags)
	}
	return t
}

// readSchema reads and compiles a tool's input or output schema.
func (d *reader) readSchema(n *yaml.Node, what string) (json.RawMessage, *jsonschema.Schema, bool) {
	m := d.Deref(n)
	if m == nil {
		return nil, nil, false
	}
	if m.Kind != yaml.MappingNode {
		d.Errorf(m, "%s must be a mapping (a JSON Schema of an object), not %s", what, decode.KindName(m))
		return nil, nil, false
	}
	raw, ok := literal(d.Decoder, m, what)
	if !ok {
		return nil, nil, false
	}
	s, ok := compileSchema(raw, what, locator{file: d.File, root: m, at: d.Pos(m)}, d.Diags)
	if !ok {
		return nil, nil, false
	}
	return raw, s, true
}

// badToolName says why name is not an MCP tool name ("" when it is one).
func badToolName(name string) string {
	if len(name) > maxNameLen {
		return "is longer than MCP's 128 characters"
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return "may hold only letters, digits, _, - and . (MCP's tool names)"
		}
	}
	return ""
}

// hasAny reports whether f sets any of keys.
func hasAny(f map[string]decode.Pair, keys []string) bool {
	for _, k := range keys {
		if _, ok := f[k]; ok {
			return true
		}
	}
	return false
}
