package spec

import (
	"math"
	"net/url"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/doubles/decl"
	gwdecl "github.com/ananke/action/internal/gateway/decl"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/vars"
)

// Defaults for values the files may leave out.
const (
	DefaultRunTimeoutMs    = 60_000 // one run's HTTP exchange
	DefaultServerTimeoutMs = 60_000 // target.server readiness
	DefaultHookTimeoutMs   = 30_000
	DefaultMaxFollowups    = 8 // follow-up runs per turn for client tools
	DefaultProtocolVersion = "1.0"
)

// Config is a project config file (ananke.config.yaml).
type Config struct {
	Path   string // as given or discovered
	Dir    string // the directory test globs are relative to
	Target Target
	// Tests are glob patterns (with **) relative to Dir.
	Tests  []vars.Name
	Redact []*vars.Regex
	// Stability is the suite's default for repeated runs (runs,
	// min_pass_rate, retries); command-line flags and test files override it.
	Stability Stability
	// FailOnFlaky makes a flaky test fail the run, even when it passed.
	FailOnFlaky bool
	// FailOnInconclusive makes a test whose adaptive runs reached their
	// maximum unsettled fail the run, whatever its status.
	FailOnInconclusive bool
	// Confidence is the level, in percent, of the intervals reports give
	// for pass rates (0: unset; ConfidenceLevel gives the default).
	Confidence float64
	// OnMissingCapability is what becomes of an assertion whose trace
	// lacks a capability it needs (default MissingSkip); a test may
	// override it.
	OnMissingCapability string
	// Assertions are the named blocks assert blocks can extend.
	Assertions []assertion.NamedBlock
	// Model is the language model the simulator, judges and generation
	// use; nil when the config has none.
	Model *Model
	// Pricing prices models (docs/cost.md), in the file's order, before
	// the built-in table (cost.NewTable).
	Pricing []cost.Rule
	// Budget bounds what the whole run's agent used; nil when the config
	// has none.
	Budget *RunBudget
	// BeforeAll hooks run once before any test; the variables their JSON
	// output sets are every test's. AfterAll hooks run once after the
	// last test, with the run's outcome as JSON on stdin.
	BeforeAll, AfterAll []Hook
	// Quarantine lists the tests that run and report but never decide the
	// run's verdict: the config's quarantine: entries, then those of the
	// file QuarantineFile names (relative to the config; "" for none).
	Quarantine     []*Quarantine
	QuarantineFile string
	// Gateway is the model gateway (docs/gateway.md); nil when the config
	// has none.
	Gateway *gwdecl.Config
	// Backend says how the agent's backend is served (docs/doubles.md);
	// Doubles are the tool doubles served in it, nil when the config
	// declares none.
	Backend Backend
	Doubles *decl.Config
	// OTel is the config's otel: (docs/opentelemetry.md); nil when it
	// has none.
	OTel *OTel
	// Attacks is the config's attacks: (docs/attacks.md); nil when it has
	// none.
	Attacks *Attacks
	// Variants are the variants the suite may run against
	// (docs/variants.md); nil without a variants: section.
	Variants []*Variant
	// Judges is the config's judges: (docs/judges.md); nil when it has none.
	Judges *Judges
	// Snapshots are the suite's rules for snapshot assertions, which each
	// extends (docs/snapshots.md); zero without a snapshots: section.
	Snapshots snapshot.Rules
}

// Target types (docs/files.md).
const (
	TargetAGUI = "agui"
	TargetA2A  = "a2a" // version 1.1
	TargetMCP  = "mcp" // version 1.2
	// TargetOpenAI is an agent behind an OpenAI-compatible API: Chat
	// Completions or Responses (docs/openai.md).
	TargetOpenAI = "openai"
	// TargetHTTP is an agent behind a JSON API of its own, described by a
	// request template and a response mapping (docs/http.md).
	TargetHTTP = "http"
)

// TargetTypes lists the target types this build speaks.
var TargetTypes = []string{TargetAGUI, TargetA2A, TargetMCP, TargetOpenAI, TargetHTTP}

// Target is the agent under test: a flat union discriminated by Type. The
// common fields come first; the AG-UI fields are set only for type agui,
// A2A only for a2a and MCP only for mcp.
type Target struct {
	Pos       diag.Pos
	Type      string
	Headers   []NamedValue // values are secrets
	TimeoutMs int64
	Assert    *assertion.Block
	// Endpoint is the agent's URL: the AG-UI endpoint, an A2A agent's
	// endpoint (alone, skipping discovery; beside a card, replacing the
	// card's URL), or an MCP server over HTTP.
	Endpoint vars.Template
	Server   *Server

	AgentID        vars.Template
	ThreadID       vars.Template // zero: a fresh id per test
	ForwardedProps vars.Value
	State          vars.Value
	// ProtocolVersion is sent as RunAgentInput.protocolVersion; "" omits it
	// (protocol_version: false).
	ProtocolVersion string
	StrictProtocol  bool
	MaxFollowups    int
	// MaxEventBytes bounds one SSE event (0: the client's default).
	MaxEventBytes int

	A2A    *A2ATarget    // type a2a
	MCP    *MCPTarget    // type mcp
	OpenAI *OpenAITarget // type openai
	HTTP   *HTTPTarget   // type http
}

// NamedValue is one entry of a name-to-value mapping: a request header or
// an environment variable.
type NamedValue struct {
	Name  string
	Value vars.Template
}

// Server starts the agent before the tests and stops it after, like
// Playwright's webServer.
type Server struct {
	Pos     diag.Pos
	Command []vars.Template
	Cwd     vars.Template
	Env     []NamedValue
	// ReadyURL is polled until it answers 2xx or 4xx. When neither it nor
	// ReadyLog is set, the target endpoint is polled.
	ReadyURL      vars.Template
	ReadyLog      *vars.Regex
	TimeoutMs     int64
	ReuseExisting bool
}

var (
	configFields = append([]string{"version", "target", "tests", "redact", "fail_on_flaky", "fail_on_inconclusive", "assertions", "model", "before_all", "after_all", "on_missing_capability", "pricing", "budget", "confidence", "quarantine", "quarantine_file", "gateway", "backend", "doubles", "otel", "attacks", "variants", "judges", "snapshots"}, stabilityFields...)
	// targetFields are every type's fields: the common ones, then each
	// type's own (targetFieldTypes says whose; some are several types').
	targetFields       = union(commonTargetFields, aguiFields, a2aFields, mcpFields, openaiFields, httpTargetFields)
	commonTargetFields = []string{"type", "headers", "timeout_ms", "assert", "endpoint", "server"}
	aguiFields         = []string{"agentId", "threadId", "forwardedProps", "state", "protocol_version", "strict_protocol", "max_followups", "max_event_bytes"}
	serverFields       = []string{"command", "cwd", "env", "ready_url", "ready_log", "timeout_ms", "reuse_existing"}
)

func (l *loader) config(doc *yaml.Node) *Config {
	c := &Config{Path: l.File}
	f, ok := l.Fields(doc, "config", configFields)
	if !ok {
		return c
	}
	l.Version(f, doc)
	if p, ok := f["target"]; ok {
		c.Target = l.target(p.Val)
	}
	if p, ok := f["tests"]; ok {
		items, _ := l.OneOrList(p.Val, "tests")
		for i, item := range items {
			if g, ok := l.Name(item, decode.Index("tests", i)); ok {
				c.Tests = append(c.Tests, g)
			}
		}
	}
	c.Redact = l.Regexes(f, "redact", "")
	c.Stability = l.stability(f, "")
	c.Confidence = l.confidence(f)
	if p, ok := f["assertions"]; ok {
		c.Assertions = assertion.ReadNamedBlocks(l.Decoder, p.Val)
	}
	if p, ok := f["model"]; ok {
		c.Model = l.model(p.Val)
	}
	if p, ok := f["pricing"]; ok {
		c.Pricing = l.pricing(p.Val)
	}
	if p, ok := f["budget"]; ok {
		c.Budget = l.runBudget(p.Val)
	}
	if p, ok := f["before_all"]; ok {
		c.BeforeAll = l.hooks(p.Val, "before_all")
	}
	if p, ok := f["after_all"]; ok {
		c.AfterAll = l.hooks(p.Val, "after_all")
	}
	if p, ok := f["fail_on_flaky"]; ok {
		c.FailOnFlaky, _ = l.Boolean(p.Val, "fail_on_flaky")
	}
	if p, ok := f["fail_on_inconclusive"]; ok {
		c.FailOnInconclusive, _ = l.Boolean(p.Val, "fail_on_inconclusive")
	}
	if p, ok := f["on_missing_capability"]; ok {
		c.OnMissingCapability = l.missingPolicy(p.Val, "on_missing_capability")
	}
	l.quarantine(f, c)
	l.configGateway(f, c)
	if p, ok := f["backend"]; ok {
		c.Backend = l.backend(p.Val)
	}
	if p, ok := f["doubles"]; ok {
		c.Doubles = decl.ReadConfig(l.Decoder, p.Val)
	}
	if p, ok := f["otel"]; ok {
		c.OTel = l.otel(p.Val)
	}
	if p, ok := f["attacks"]; ok {
		c.Attacks = l.attacks(p.Val)
	}
	if p, ok := f["judges"]; ok {
		c.Judges = l.judges(p.Val)
	}
	var target *yaml.Node
	if p, ok := f["target"]; ok {
		target = p.Val
	}
	l.variants(f, c, target)
	l.snapshots(f, c)
	for _, re := range c.Redact {
		if len(re.Refs()) > 0 {
			l.Diags.Add(re.Pos, "redact patterns cannot reference variables; ${ENV.*} values are masked already")
		}
	}
	return c
}

func (l *loader) target(n *yaml.Node) Target {
	t := Target{TimeoutMs: DefaultRunTimeoutMs}
	f, ok := l.FieldsShown(n, "target", targetFields, typeFields(peekType(n)))
	if !ok {
		return t
	}
	t.Pos = l.Pos(l.DerefQuiet(n))
	l.Require(n, f, "target", "type")
	if p, ok := f["type"]; ok {
		t.Type = l.targetType(p.Val)
	}
	l.foreignFields(f, t.Type)
	if p, ok := f["headers"]; ok {
		t.Headers = l.namedValues(p.Val, "target.headers", "HTTP header name", validHeaderName)
	}
	if p, ok := f["timeout_ms"]; ok {
		t.TimeoutMs, _ = l.Integer(p.Val, "target.timeout_ms", 1, math.MaxInt64)
	}
	if p, ok := f["assert"]; ok {
		t.Assert = assertion.ReadBlock(l.Decoder, p.Val, "target.assert")
	}
	if p, ok := f["endpoint"]; ok {
		t.Endpoint = l.url(p.Val, "target.endpoint")
	}
	if p, ok := f["server"]; ok {
		t.Server = l.server(p.Val)
	}
	switch t.Type {
	case TargetAGUI:
		l.Require(n, f, "target", "endpoint", "agentId")
		l.aguiTarget(f, &t)
	case TargetA2A:
		l.discovery(n, f)
		t.A2A = l.a2aTarget(f)
	case TargetMCP:
		t.MCP = l.mcpTarget(n, f)
	case TargetOpenAI:
		t.OpenAI = l.openaiTarget(n, f, &t)
	case TargetHTTP:
		t.HTTP = l.httpTarget(n, f, &t, true)
	default:
		// No type, or one Ananke does not speak: the fields written are
		// still checked, so one run of validate shows every problem.
		l.aguiTarget(f, &t)
		l.a2aTarget(f)
		l.mcpFields(f)
		l.openaiOwn(n, f)
		l.httpTarget(n, f, &t, false)
	}
	return t
}

// peekType returns a target mapping's type as written, without reporting
// anything ("" when absent).
func peekType(n *yaml.Node) string {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "type" && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// typeFields lists the fields of a target type (every type's for one
// Ananke does not speak).
func typeFields(typ string) []string {
	switch typ {
	case TargetAGUI:
		return slices.Concat(commonTargetFields, aguiFields)
	case TargetA2A:
		return slices.Concat(commonTargetFields, a2aFields)
	case TargetMCP:
		return slices.Concat(commonTargetFields, mcpFields)
	case TargetOpenAI:
		return slices.Concat(commonTargetFields, openaiFields)
	case TargetHTTP:
		return slices.Concat(commonTargetFields, httpTargetFields)
	}
	return targetFields
}

// targetType reads target.type; a type newer than the file's version is
// reported, and "" returned for a type Ananke does not speak.
func (l *loader) targetType(n *yaml.Node) string {
	s, node, ok := l.Text(n, "target.type")
	if !ok {
		return ""
	}
	switch s {
	case TargetAGUI:
	case TargetA2A:
		l.Since(node, decode.MinorA2A, "target type a2a")
	case TargetMCP:
		l.Since(node, decode.MinorMCP, "target type mcp")
	case TargetOpenAI:
	case TargetHTTP:
	default:
		l.Errorf(node, `target.type %q is not supported (supported: %s)`, s, quoteAll(TargetTypes))
		return ""
	}
	return s
}

// targetFieldTypes says which types a type-specific target field belongs
// to (none for a common field).
func targetFieldTypes(field string) []string {
	var out []string
	for _, t := range []struct {
		typ    string
		fields []string
	}{{TargetAGUI, aguiFields}, {TargetA2A, a2aFields}, {TargetMCP, mcpFields}, {TargetOpenAI, openaiFields}, {TargetHTTP, httpTargetFields}} {
		if slices.Contains(t.fields, field) {
			out = append(out, t.typ)
		}
	}
	return out
}

// foreignFields reports, and drops from f, the fields of another target
// type than typ: "target: agentId is an agui field; this target is a2a".
func (l *loader) foreignFields(f map[string]decode.Pair, typ string) {
	if typ == "" {
		return
	}
	for k, p := range f {
		if owners := targetFieldTypes(k); len(owners) > 0 && !slices.Contains(owners, typ) {
			l.Errorf(p.Key, "target: %s is an %s field; this target is %s", k, orList(owners), typ)
			delete(f, k)
		}
	}
}

// aguiTarget reads the AG-UI fields.
func (l *loader) aguiTarget(f map[string]decode.Pair, t *Target) {
	t.ProtocolVersion, t.MaxFollowups = DefaultProtocolVersion, DefaultMaxFollowups
	if p, ok := f["agentId"]; ok {
		t.AgentID, _ = l.Template(p.Val, "target.agentId")
	}
	if p, ok := f["threadId"]; ok {
		t.ThreadID, _ = l.Template(p.Val, "target.threadId")
	}
	if p, ok := f["forwardedProps"]; ok {
		t.ForwardedProps = l.object(p.Val, "target.forwardedProps")
	}
	if p, ok := f["state"]; ok {
		t.State, _ = l.Value(p.Val, "target.state")
	}
	if p, ok := f["protocol_version"]; ok {
		t.ProtocolVersion = l.protocolVersion(p.Val)
	}
	if p, ok := f["strict_protocol"]; ok {
		t.StrictProtocol, _ = l.Boolean(p.Val, "target.strict_protocol")
	}
	if p, ok := f["max_event_bytes"]; ok {
		v, _ := l.Integer(p.Val, "target.max_event_bytes", 1024, 1<<30)
		t.MaxEventBytes = int(v)
	}
	if p, ok := f["max_followups"]; ok {
		v, _ := l.Integer(p.Val, "target.max_followups", 0, 1000)
		t.MaxFollowups = int(v)
	}
}

// union is the names of lists, each once, in the order first met.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// namedValues reads a mapping of names to string values (headers, env),
// keeping the file's order.
func (l *loader) namedValues(n *yaml.Node, what, kind string, valid func(string) bool) []NamedValue {
	m := l.Deref(n)
	if m == nil {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		l.Errorf(m, "%s must be a mapping of %s to value, not %s", what, kind, decode.KindName(m))
		return nil
	}
	var out []NamedValue
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := l.Deref(m.Content[i])
		if k == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode || !valid(k.Value) {
			l.Errorf(k, "%s: %q is not a valid %s", what, k.Value, kind)
			continue
		}
		if v, ok := l.Template(m.Content[i+1], what+"."+k.Value); ok {
			out = append(out, NamedValue{Name: k.Value, Value: v})
		}
	}
	return out
}

// validHeaderName reports whether s is an RFC 9110 token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= ' ' || containsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

func containsRune(s string, r rune) bool {
	for _, c := range s {
		if c == r {
			return true
		}
	}
	return false
}

// url reads an http(s) URL; one holding references is checked when resolved.
func (l *loader) url(n *yaml.Node, what string) vars.Template {
	t, ok := l.Template(n, what)
	if !ok || len(t.Refs()) > 0 {
		return t
	}
	if u, err := url.Parse(t.Raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		l.Errorf(l.DerefQuiet(n), "%s %q is not an http:// or https:// URL", what, t.Raw)
	}
	return t
}

// object reads a value that must be a mapping (forwardedProps).
func (l *loader) object(n *yaml.Node, what string) vars.Value {
	if d := l.Deref(n); d != nil && d.Kind != yaml.MappingNode {
		l.Errorf(d, "%s must be a mapping, not %s", what, decode.KindName(d))
		return vars.Value{}
	}
	v, _ := l.Value(n, what)
	return v
}

func (l *loader) protocolVersion(n *yaml.Node) string {
	s, ok := l.Scalar(n, "target.protocol_version", `a version string or false`)
	if !ok {
		return DefaultProtocolVersion
	}
	if s.ShortTag() == "!!bool" {
		if b, _ := l.Boolean(s, "target.protocol_version"); !b {
			return ""
		}
		l.Errorf(s, `target.protocol_version: true is not a version; write a version such as %q, or false to omit it`, DefaultProtocolVersion)
		return DefaultProtocolVersion
	}
	if !decode.IsVersion(s.Value) {
		l.Errorf(s, `target.protocol_version %q is not of the form MAJOR.MINOR`, s.Value)
	}
	return s.Value
}

func (l *loader) server(n *yaml.Node) *Server {
	f, ok := l.Fields(n, "target.server", serverFields)
	if !ok {
		return nil
	}
	s := &Server{Pos: l.Pos(l.DerefQuiet(n)), TimeoutMs: DefaultServerTimeoutMs}
	l.Require(n, f, "target.server", "command")
	if p, ok := f["command"]; ok {
		s.Command = l.Argv(p.Val, "target.server.command")
	}
	if p, ok := f["cwd"]; ok {
		s.Cwd, _ = l.Template(p.Val, "target.server.cwd")
	}
	if p, ok := f["env"]; ok {
		s.Env = l.namedValues(p.Val, "target.server.env", "environment variable name", vars.IsIdent)
	}
	if p, ok := f["ready_url"]; ok {
		s.ReadyURL = l.url(p.Val, "target.server.ready_url")
	}
	if p, ok := f["ready_log"]; ok {
		s.ReadyLog, _ = l.Regex(p.Val, "target.server.ready_log")
	}
	if _, both := f["ready_url"]; both {
		if p, ok := f["ready_log"]; ok {
			l.Errorf(p.Key, "target.server: set ready_url or ready_log, not both")
		}
	}
	if p, ok := f["timeout_ms"]; ok {
		s.TimeoutMs, _ = l.Integer(p.Val, "target.server.timeout_ms", 1, math.MaxInt64)
	}
	if p, ok := f["reuse_existing"]; ok {
		s.ReuseExisting, _ = l.Boolean(p.Val, "target.server.reuse_existing")
	}
	return s
}
