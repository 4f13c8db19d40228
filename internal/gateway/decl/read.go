package decl

import (
	"math"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/vars"
)

var (
	configFields = []string{"listen", "upstream", "api_key", "mode", "recordings", "ignore", "timeout_ms", "include_usage"}
	testFields   = []string{"faults"}
	faultFields  = []string{"turn", "call", "status", "retry_after", "fault"}
)

// ReadConfig reads the config's gateway: with d, reporting every problem
// at its position; nil when n is not a mapping.
func ReadConfig(d *decode.Decoder, n *yaml.Node) *Config {
	f, ok := d.Fields(n, "gateway", configFields)
	if !ok {
		return nil
	}
	c := &Config{Pos: d.Pos(d.DerefQuiet(n)), Mode: DefaultMode, Recordings: DefaultRecordings, TimeoutMs: DefaultTimeoutMs, IncludeUsage: true}
	d.Require(n, f, "gateway", "listen")
	if p, ok := f["listen"]; ok {
		c.Listen = readListen(d, p.Val)
	}
	modeRead := true
	if p, ok := f["mode"]; ok {
		modeRead = false
		if s, node, ok := d.Text(p.Val, "gateway.mode"); ok {
			if m, err := ParseMode(s); err != nil {
				d.Errorf(node, "gateway.mode: %v", err)
			} else {
				c.Mode, modeRead = m, true
			}
		}
	}
	if p, ok := f["upstream"]; ok {
		c.Upstream = readURL(d, p.Val, "gateway.upstream")
	} else if modeRead && c.Mode != Replay {
		d.Errorf(d.DerefQuiet(n), "gateway is missing required field %q: %s mode forwards the agent's requests to it (only mode: replay needs none)", "upstream", c.Mode)
	}
	if p, ok := f["api_key"]; ok {
		c.APIKey, _ = d.Template(p.Val, "gateway.api_key")
	}
	if p, ok := f["recordings"]; ok {
		if name, ok := d.Name(p.Val, "gateway.recordings"); ok {
			c.Recordings = name.Value
		}
	}
	if p, ok := f["ignore"]; ok {
		c.Ignore = readIgnore(d, p.Val)
	}
	if p, ok := f["timeout_ms"]; ok {
		if v, ok := d.Integer(p.Val, "gateway.timeout_ms", 1, math.MaxInt64); ok {
			c.TimeoutMs = v
		}
	}
	if p, ok := f["include_usage"]; ok {
		if v, ok := d.Boolean(p.Val, "gateway.include_usage"); ok {
			c.IncludeUsage = v
		}
	}
	return c
}

// ParseMode reads a mode's name: the config's gateway.mode and the
// command line's override.
func ParseMode(s string) (Mode, error) {
	if m := Mode(s); slices.Contains(Modes, m) {
		return m, nil
	}
	return "", &modeError{s}
}

type modeError struct{ got string }

func (e *modeError) Error() string {
	return "unknown mode " + strconv.Quote(e.got) + "; the modes are passthrough, record and replay"
}

// readListen reads an address: host:port, or a template resolved later.
func readListen(d *decode.Decoder, n *yaml.Node) vars.Template {
	t, ok := d.Template(n, "gateway.listen")
	if !ok || len(t.Refs()) > 0 {
		return t
	}
	if _, port, err := net.SplitHostPort(t.Raw); err != nil || !validPort(port) {
		d.Errorf(d.DerefQuiet(n), "gateway.listen %q is not an address (write host:port, e.g. 127.0.0.1:4391, or :4391 for every interface)", t.Raw)
	}
	return t
}

// validPort reports whether s is a port number.
func validPort(s string) bool {
	v, err := strconv.ParseUint(s, 10, 16)
	return err == nil && s[0] != '+' && v <= math.MaxUint16
}

// readURL reads an http or https URL, or a template resolved later.
func readURL(d *decode.Decoder, n *yaml.Node, what string) vars.Template {
	t, ok := d.Template(n, what)
	if !ok || len(t.Refs()) > 0 {
		return t
	}
	if u, err := url.Parse(t.Raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		d.Errorf(d.DerefQuiet(n), "%s %q is not an http:// or https:// URL", what, t.Raw)
	}
	return t
}

// readIgnore reads the fields the fingerprint leaves out: dotted paths
// of names, each written once.
func readIgnore(d *decode.Decoder, n *yaml.Node) []string {
	items, ok := d.OneOrList(n, "gateway.ignore")
	if !ok {
		return nil
	}
	var out []string
	for i, item := range items {
		what := decode.Index("gateway.ignore", i)
		name, ok := d.Name(item, what)
		if !ok {
			continue
		}
		node := d.DerefQuiet(item)
		switch {
		case slices.Contains(strings.Split(name.Value, "."), ""):
			d.Errorf(node, "%s %q is not a field path (names joined by dots: metadata, messages.name)", what, name.Value)
		case slices.Contains(out, name.Value):
			d.Errorf(node, "%s: %q is listed twice", what, name.Value)
		default:
			out = append(out, name.Value)
		}
	}
	return out
}

// ReadTest reads a test file's gateway: with d, reporting every problem
// at its position; nil when n is not a mapping.
func ReadTest(d *decode.Decoder, n *yaml.Node) *Test {
	f, ok := d.Fields(n, "gateway", testFields)
	if !ok {
		return nil
	}
	t := &Test{Pos: d.Pos(d.DerefQuiet(n))}
	if p, ok := f["faults"]; ok {
		items, _ := d.List(p.Val, "gateway.faults")
		for i, item := range items {
			if ft, ok := readFault(d, item, decode.Index("gateway.faults", i)); ok {
				if j := slices.IndexFunc(t.Faults, ft.sameCall); j >= 0 {
					d.Errorf(d.DerefQuiet(item), "%s: %s already has a fault (gateway.faults[%d], line %d)", decode.Index("gateway.faults", i), ft.callName(), j, t.Faults[j].Pos.Line)
					continue
				}
				t.Faults = append(t.Faults, ft)
			}
		}
	}
	return t
}

// readFault reads one fault: call and exactly one of status and fault.
func readFault(d *decode.Decoder, n *yaml.Node, what string) (Fault, bool) {
	f, ok := d.Fields(n, what, faultFields)
	if !ok {
		return Fault{}, false
	}
	ft := Fault{Pos: d.Pos(d.DerefQuiet(n))}
	good := true
	d.Require(n, f, what, "call")
	if _, ok := f["call"]; !ok {
		good = false
	}
	if p, ok := f["call"]; ok {
		v, ok := d.Integer(p.Val, what+".call", 1, math.MaxInt64)
		ft.Call, good = int(v), good && ok
	}
	if p, ok := f["turn"]; ok {
		v, ok := d.Integer(p.Val, what+".turn", 0, math.MaxInt64)
		turn := int(v)
		ft.Turn, good = &turn, good && ok
	}
	status, hasStatus := f["status"]
	kind, hasKind := f["fault"]
	switch {
	case hasStatus && hasKind:
		d.Errorf(d.DerefQuiet(kind.Key), "%s has both status and fault; a call gets one of them", what)
		good = false
	case !hasStatus && !hasKind:
		d.Errorf(d.DerefQuiet(n), "%s needs status (an HTTP error status, e.g. 429) or fault (%s)", what, strings.Join(FaultKinds, ", "))
		good = false
	case hasStatus:
		v, ok := d.Integer(status.Val, what+".status", 400, 599)
		ft.Status, good = int(v), good && ok
	default:
		if s, node, ok := d.Text(kind.Val, what+".fault"); ok {
			if slices.Contains(FaultKinds, s) {
				ft.Kind = s
			} else {
				d.Errorf(node, "%s.fault: unknown fault %q; the faults are %s (an HTTP status is written status: 429)%s", what, s, strings.Join(FaultKinds, ", "), decode.Suggest(s, FaultKinds))
				good = false
			}
		} else {
			good = false
		}
	}
	if p, ok := f["retry_after"]; ok {
		v, ok := d.Integer(p.Val, what+".retry_after", 0, math.MaxInt64)
		secs := int(v)
		ft.RetryAfter, good = &secs, good && ok
		if hasKind && !hasStatus {
			d.Errorf(d.DerefQuiet(p.Key), "%s.retry_after goes with status: it is the Retry-After header of an HTTP error answer", what)
			good = false
		}
	}
	return ft, good
}

// sameCall reports whether two faults name the same call.
func (f Fault) sameCall(o Fault) bool {
	if f.Call != o.Call || (f.Turn == nil) != (o.Turn == nil) {
		return false
	}
	return f.Turn == nil || *f.Turn == *o.Turn
}

// callName says which call a fault names: "call 2", "call 1 of turn 0".
func (f Fault) callName() string {
	s := "call " + strconv.Itoa(f.Call)
	if f.Turn != nil {
		s += " of turn " + strconv.Itoa(*f.Turn)
	}
	return s
}
