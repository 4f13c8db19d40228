package assertion

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Span checks (docs/files.md, "Spans"), on traces that hold the agent's
// OpenTelemetry spans: spans.require selects spans by name, GenAI
// operation, service, attributes, status and an ancestor, and counts
// them (and bounds how long each took); spans.forbid selects spans none
// of which may exist.

// attrOperation is the GenAI semantic conventions' operation attribute
// (internal/otel/genai reads the same).
const attrOperation = "gen_ai.operation.name"

// SpanSelect selects spans: each field set must hold; none set selects
// every span.
type SpanSelect struct {
	// Name is the span's name exactly; NameMatch a regex over it.
	Name      string
	NameMatch *vars.Regex
	// Operation is its gen_ai.operation.name (execute_tool, chat,
	// invoke_agent, …); Service its resource's service.name.
	Operation string
	Service   string
	// Attributes are checks of its attributes, each must hold.
	Attributes []AttrCheck
	// Status is "ok", "error" or "unset"; "" any.
	Status string
}

// AttrCheck checks one attribute of a span: its value's text equals
// Equals (strings as they are, other values as compact JSON), or matches
// Match, or (Exists) it is there or not.
type AttrCheck struct {
	Key    string
	Pos    diag.Pos
	Equals vars.Template
	Match  *vars.Regex
	Exists *bool
	// Text is Equals resolved (Bind); Equals.Raw until then.
	Text string
}

// SpanEntry is one spans.require entry (Count spans must match it) or
// spans.forbid entry (none may).
type SpanEntry struct {
	Pos diag.Pos
	SpanSelect
	// Under, when set, selects an ancestor the span must descend from
	// (its parent, or its parent's, and so on).
	Under *SpanSelect
	// Count is how many matching spans a require entry accepts.
	Count Count
	// MaxDurationMs bounds how long each matching span took (require
	// only; 0: no bound).
	MaxDurationMs int64
	// Severity is the entry's own severity ("": the block's).
	Severity Severity
}

var (
	selectFields       = []string{"name", "name_match", "operation", "service", "attributes", "status"}
	spanRequireFields  = append(append([]string{}, selectFields...), "under", "count", "max_duration_ms", "severity")
	spanForbidFields   = append(append([]string{}, selectFields...), "under", "severity")
	attrCheckFields    = []string{"equals", "match", "exists"}
	spanStatuses       = []string{"ok", "error", "unset"}
	spanSelectDescribe = "Selects spans: each field set must hold ({}: every span)."
)

func readSpanRequire(l *reader, n *yaml.Node, what string) []Item {
	return l.spanEntries(n, what, spanRequireFields)
}

func readSpanForbid(l *reader, n *yaml.Node, what string) []Item {
	return l.spanEntries(n, what, spanForbidFields)
}

func (l *reader) spanEntries(n *yaml.Node, what string, known []string) []Item {
	items, _ := l.List(n, what)
	var out []Item
	for i, item := range items {
		w := decode.Index(what, i)
		before := len(*l.Diags)
		f, ok := l.Fields(item, w, known)
		if !ok {
			continue
		}
		e := SpanEntry{Pos: l.Pos(l.DerefQuiet(item)), SpanSelect: l.spanSelect(f, w), Count: DefaultCount}
		if p, ok := f["under"]; ok {
			if uf, ok := l.Fields(p.Val, w+".under", selectFields); ok {
				u := l.spanSelect(uf, w+".under")
				e.Under = &u
			}
		}
		if p, ok := f["count"]; ok {
			e.Count = l.count(p.Val, w+".count")
		}
		if lim := l.limit(f, "max_duration_ms", w); lim.Off {
			l.Errorf(f["max_duration_ms"].Val, "%s.max_duration_ms: false has nothing to disable here; remove it", w)
		} else {
			e.MaxDurationMs = lim.Ms
		}
		if p, ok := f["severity"]; ok {
			e.Severity = l.severity(p.Val, w+".severity")
		}
		if len(*l.Diags) == before {
			out = append(out, Item{Pos: e.Pos, Severity: e.Severity, Payload: &e})
		}
	}
	return out
}

func (l *reader) spanSelect(f map[string]decode.Pair, what string) SpanSelect {
	var s SpanSelect
	text := func(key string) string {
		p, ok := f[key]
		if !ok {
			return ""
		}
		v, node, ok := l.Text(p.Val, what+"."+key)
		if ok && v == "" {
			l.Errorf(node, "%s.%s is empty", what, key)
		}
		return v
	}
	s.Name = text("name")
	s.NameMatch = l.OptRegex(f, "name_match", what)
	s.Operation = text("operation")
	s.Service = text("service")
	if st := text("status"); st != "" {
		if !slices.Contains(spanStatuses, st) {
			l.Errorf(f["status"].Val, "%s.status %q is not one of %s", what, st, strings.Join(spanStatuses, ", "))
		}
		s.Status = st
	}
	if p, ok := f["attributes"]; ok {
		s.Attributes = l.attrChecks(p.Val, what+".attributes")
	}
	return s
}

// attrChecks reads attributes: a mapping of attribute names to a value
// (equals), or to {equals}, {match} or {exists}.
func (l *reader) attrChecks(n *yaml.Node, what string) []AttrCheck {
	var out []AttrCheck
	l.namedEntries(n, what, "attribute names to a value or {equals | match | exists}", "attribute", func(k, v *yaml.Node) {
		w := what + "." + k.Value
		c := AttrCheck{Key: k.Value, Pos: l.Pos(k)}
		if dv := l.DerefQuiet(v); dv.Kind != yaml.MappingNode {
			if t, ok := l.Template(v, w); ok {
				c.Equals, c.Text = t, t.Raw
				out = append(out, c)
			}
			return
		}
		f, ok := l.Fields(v, w, attrCheckFields)
		if !ok {
			return
		}
		if len(f) != 1 {
			l.Errorf(l.DerefQuiet(v), "%s needs exactly one of equals, match or exists", w)
			return
		}
		switch {
		case f["equals"].Val != nil:
			t, ok := l.Template(f["equals"].Val, w+".equals")
			if !ok {
				return
			}
			c.Equals, c.Text = t, t.Raw
		case f["match"].Val != nil:
			if c.Match = l.OptRegex(f, "match", w); c.Match == nil {
				return
			}
		default:
			b, ok := l.Boolean(f["exists"].Val, w+".exists")
			if !ok {
				return
			}
			c.Exists = &b
		}
		out = append(out, c)
	})
	return out
}

func spanSelectProps() decode.Obj {
	attr := decode.Obj{"oneOf": []any{
		decode.Obj{"type": []string{"string", "number", "boolean"}, "description": "The attribute's value, as text."},
		decode.Object("", attrCheckFields, decode.Obj{
			"equals": decode.Obj{"type": []string{"string", "number", "boolean"}, "description": "The attribute's value, as text."},
			"match":  decode.Ref("regex"),
			"exists": decode.Bool("true: the span has the attribute; false: it has not."),
		}),
	}}
	return decode.Obj{
		"name":       decode.Str("The span's name, exactly."),
		"name_match": decode.Ref("regex"),
		"operation":  decode.Str("Its GenAI operation, gen_ai.operation.name: execute_tool, chat, invoke_agent, …"),
		"service":    decode.Str("The service that sent it (its resource's service.name)."),
		"attributes": decode.Obj{"type": "object", "additionalProperties": attr,
			"description": "Attribute names to a value (equal as text: strings as they are, others as compact JSON) or {equals}, {match: regex}, {exists: bool}."},
		"status": decode.Obj{"enum": spanStatuses, "description": "The span's status."},
	}
}

func spanEntrySchema(known []string, more decode.Obj) decode.Obj {
	props := spanSelectProps()
	props["under"] = decode.Object("An ancestor the span descends from. "+spanSelectDescribe, selectFields, spanSelectProps())
	props["severity"] = severitySchema()
	for k, v := range more {
		props[k] = v
	}
	return decode.Object(spanSelectDescribe, known, props)
}

func spansRequireSchema() decode.Obj {
	return decode.List(spanEntrySchema(spanRequireFields, decode.Obj{
		"count":           countSchema(),
		"max_duration_ms": decode.Obj{"type": "integer", "minimum": 1, "description": "Every matching span took at most this."},
	}), "Spans that must be there: each entry's count of matching spans (default at least one).")
}

func spansForbidSchema() decode.Obj {
	return decode.List(spanEntrySchema(spanForbidFields, nil), "Spans that must not be there: no span may match an entry.")
}

// Refs implements Payload.
func (e *SpanEntry) Refs() []vars.Ref {
	refs := e.SpanSelect.refs()
	if e.Under != nil {
		refs = append(refs, e.Under.refs()...)
	}
	return refs
}

func (s *SpanSelect) refs() []vars.Ref {
	refs := regexRefs(s.NameMatch)
	for _, a := range s.Attributes {
		refs = append(refs, a.Equals.Refs()...)
		refs = append(refs, regexRefs(a.Match)...)
	}
	return refs
}

// Bind implements Payload.
func (e *SpanEntry) Bind(v *vars.Vars) (Payload, error) {
	b := *e
	var err error
	if b.SpanSelect, err = e.SpanSelect.bind(v); err != nil {
		return nil, err
	}
	if e.Under != nil {
		u, err := e.Under.bind(v)
		if err != nil {
			return nil, err
		}
		b.Under = &u
	}
	return &b, nil
}

func (s SpanSelect) bind(v *vars.Vars) (SpanSelect, error) {
	var err error
	if s.NameMatch, err = bindOpt(s.NameMatch, v); err != nil {
		return s, err
	}
	attrs := make([]AttrCheck, len(s.Attributes))
	for i, a := range s.Attributes {
		if !a.Equals.IsZero() {
			if a.Text, err = a.Equals.Resolve(v); err != nil {
				return s, err
			}
		}
		if a.Match, err = bindOpt(a.Match, v); err != nil {
			return s, err
		}
		attrs[i] = a
	}
	s.Attributes = attrs
	return s, nil
}

// mismatch is the first field of the selection span sp fails, described
// ("operation `chat`"), or "" when it matches.
func (s *SpanSelect) mismatch(sp *trace.Span) string {
	if s.Name != "" && sp.Name != s.Name {
		return fmt.Sprintf("name `%s`", s.Name)
	}
	if s.NameMatch != nil && !s.NameMatch.Compiled().MatchString(sp.Name) {
		return fmt.Sprintf("name_match `%s`", s.NameMatch)
	}
	if s.Operation != "" && attrText(sp.Attributes[attrOperation]) != s.Operation {
		return fmt.Sprintf("operation `%s`", s.Operation)
	}
	if s.Service != "" && sp.Service != s.Service {
		return fmt.Sprintf("service `%s`", s.Service)
	}
	for i := range s.Attributes {
		if a := &s.Attributes[i]; !a.holds(sp) {
			return a.describe()
		}
	}
	if s.Status != "" && spanStatus(sp) != s.Status {
		return "status " + s.Status
	}
	return ""
}

// identifies reports whether the span is of the kind the selection
// names — by name and operation — whatever its other fields: the spans a
// failure message explains.
func (s *SpanSelect) identifies(sp *trace.Span) bool {
	n := SpanSelect{Name: s.Name, NameMatch: s.NameMatch, Operation: s.Operation}
	return n.mismatch(sp) == ""
}

func (a *AttrCheck) holds(sp *trace.Span) bool {
	v, ok := sp.Attributes[a.Key]
	switch {
	case a.Exists != nil:
		return ok == *a.Exists
	case !ok:
		return false
	case a.Match != nil:
		return a.Match.Compiled().MatchString(attrText(v))
	}
	return attrText(v) == a.Text
}

func (a *AttrCheck) describe() string {
	switch {
	case a.Exists != nil && *a.Exists:
		return "attribute " + a.Key + " present"
	case a.Exists != nil:
		return "attribute " + a.Key + " absent"
	case a.Match != nil:
		return fmt.Sprintf("%s matching `%s`", a.Key, a.Match)
	}
	return fmt.Sprintf("%s = %s", a.Key, quote(a.Text))
}

// attrText is an attribute's value as text: a string as it is, any other
// value as compact JSON (a whole number without a fraction, whether OTLP
// gave an integer or a trace file a float).
func attrText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		if x == float64(int64(x)) {
			return fmt.Sprint(int64(x))
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func spanStatus(sp *trace.Span) string {
	if sp.Status == "" {
		return "unset"
	}
	return sp.Status
}

// describe says what the selection selects: "a span with operation
// `execute_tool`, gen_ai.tool.name = "refund"".
func (s *SpanSelect) describe() string {
	var parts []string
	if s.Name != "" {
		parts = append(parts, fmt.Sprintf("name `%s`", s.Name))
	}
	if s.NameMatch != nil {
		parts = append(parts, fmt.Sprintf("name matching `%s`", s.NameMatch))
	}
	if s.Operation != "" {
		parts = append(parts, fmt.Sprintf("operation `%s`", s.Operation))
	}
	if s.Service != "" {
		parts = append(parts, fmt.Sprintf("service `%s`", s.Service))
	}
	for i := range s.Attributes {
		parts = append(parts, s.Attributes[i].describe())
	}
	if s.Status != "" {
		parts = append(parts, "status "+s.Status)
	}
	if len(parts) == 0 {
		return "any span"
	}
	return "a span with " + strings.Join(parts, ", ")
}

func (e *SpanEntry) describe() string {
	d := e.SpanSelect.describe()
	if e.Under != nil {
		d += " under " + e.Under.describe()
	}
	return d
}
