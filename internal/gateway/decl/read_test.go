package decl

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// readYAML reads src, a mapping whose gateway: key holds the block, with
// read, and returns what it read and the problems as "line:col: message".
func readYAML[T any](t *testing.T, src string, read func(*decode.Decoder, *yaml.Node) T) (T, []string) {
	t.Helper()
	var diags diag.Diagnostics
	d := &decode.Decoder{File: "f.yaml", Diags: &diags}
	root := d.ParseBytes([]byte(src))
	var zero T
	if root == nil {
		t.Fatalf("%q does not parse: %v", src, diags)
		return zero, nil
	}
	got := read(d, root.Content[1])
	var msgs []string
	for _, dg := range diags {
		msgs = append(msgs, strings.TrimPrefix(dg.String(), "f.yaml:"))
	}
	return got, msgs
}

func TestReadConfig(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Config // Pos, Listen, Upstream and APIKey compared by Raw
		raw       [3]string
		errs      []string
	}{
		{name: "defaults",
			src:  "gateway: {listen: \"127.0.0.1:4391\", upstream: \"${ENV.OPENAI_BASE_URL}\", api_key: \"${ENV.OPENAI_API_KEY}\"}",
			want: Config{Mode: Passthrough, Recordings: DefaultRecordings, TimeoutMs: DefaultTimeoutMs, IncludeUsage: true},
			raw:  [3]string{"127.0.0.1:4391", "${ENV.OPENAI_BASE_URL}", "${ENV.OPENAI_API_KEY}"}},
		{name: "everything",
			src:  "gateway:\n  listen: \":4391\"\n  upstream: https://api.openai.com/v1\n  mode: record\n  recordings: rec\n  ignore: [metadata, messages.name]\n  timeout_ms: 1000\n  include_usage: false\n",
			want: Config{Mode: Record, Recordings: "rec", Ignore: []string{"metadata", "messages.name"}, TimeoutMs: 1000, IncludeUsage: false},
			raw:  [3]string{":4391", "https://api.openai.com/v1", ""}},
		{name: "replay needs no upstream",
			src:  "gateway: {listen: \"[::1]:0\", mode: replay, ignore: user}",
			want: Config{Mode: Replay, Recordings: DefaultRecordings, Ignore: []string{"user"}, TimeoutMs: DefaultTimeoutMs, IncludeUsage: true},
			raw:  [3]string{"[::1]:0", "", ""}},
		{name: "every problem at its place",
			src: "gateway:\n  listen: localhost\n  upstream: ftp://x\n  mode: recrod\n  ignore: [a..b, x, x, \"\"]\n  timeout_ms: 0\n  timeout: 1\n  include_usage: \"yes\"\n",
			errs: []string{
				`7:3: unknown field "timeout" in gateway; known fields: listen, upstream, api_key, mode, recordings, ignore, timeout_ms, include_usage`,
				`2:11: gateway.listen "localhost" is not an address (write host:port, e.g. 127.0.0.1:4391, or :4391 for every interface)`,
				`4:9: gateway.mode: unknown mode "recrod"; the modes are passthrough, record and replay`,
				`3:13: gateway.upstream "ftp://x" is not an http:// or https:// URL`,
				`5:12: gateway.ignore[0] "a..b" is not a field path (names joined by dots: metadata, messages.name)`,
				`5:21: gateway.ignore[2]: "x" is listed twice`,
				`5:24: gateway.ignore[3] must not be empty`,
				`6:15: gateway.timeout_ms must be at least 1, got 0`,
				`8:18: gateway.include_usage must be true or false, not a string`,
			}},
		{name: "upstream required unless replay",
			src:  "gateway: {mode: record}",
			errs: []string{`1:10: gateway is missing required field "listen"`, `1:10: gateway is missing required field "upstream": record mode forwards the agent's requests to it (only mode: replay needs none)`}},
		{name: "a mode misspelt asks for no upstream",
			src:  "gateway: {listen: \":1\", mode: replya}",
			errs: []string{`1:31: gateway.mode: unknown mode "replya"; the modes are passthrough, record and replay`}},
		{name: "not a mapping", src: "gateway: true", errs: []string{`1:10: gateway must be a mapping, not a boolean`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := readYAML(t, tc.src, ReadConfig)
			if !reflect.DeepEqual(errs, tc.errs) {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(tc.errs, "\n"))
			}
			if tc.errs != nil {
				return
			}
			if raw := [3]string{got.Listen.Raw, got.Upstream.Raw, got.APIKey.Raw}; raw != tc.raw {
				t.Errorf("listen, upstream, api_key = %q, want %q", raw, tc.raw)
			}
			got.Pos, got.Listen, got.Upstream, got.APIKey = diag.Pos{}, tc.want.Listen, tc.want.Upstream, tc.want.APIKey
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("got %+v, want %+v", *got, tc.want)
			}
		})
	}
}

func TestReadTest(t *testing.T) {
	one, two := 1, 0
	for _, tc := range []struct {
		name, src string
		want      []Fault // compared without Pos
		errs      []string
	}{
		{name: "faults",
			src: "gateway:\n  faults:\n    - {call: 1, status: 429, retry_after: 1}\n    - {call: 2, fault: timeout}\n    - {turn: 0, call: 1, status: 500}\n    - {turn: 0, call: 2, fault: truncate}\n    - {call: 3, fault: drop}\n",
			want: []Fault{{Call: 1, Status: 429, RetryAfter: &one}, {Call: 2, Kind: FaultTimeout}, {Turn: &two, Call: 1, Status: 500},
				{Turn: &two, Call: 2, Kind: FaultTruncate}, {Call: 3, Kind: FaultDrop}}},
		{name: "every problem at its place",
			src: "gateway:\n  faults:\n    - {call: 0, status: 200}\n    - {call: 1}\n    - {call: 1, status: 429, fault: drop}\n    - {call: 2, fault: timout}\n    - {call: 3, fault: drop, retry_after: 2}\n    - {status: 500}\n    - {call: 4, status: 503}\n    - {call: 4, status: 429}\n    - {turn: -1, call: 5, status: 500}\n  fault: []\n",
			errs: []string{
				`12:3: unknown field "fault" in gateway (did you mean "faults"?)`,
				`3:14: gateway.faults[0].call must be at least 1, got 0`,
				`3:25: gateway.faults[0].status must be between 400 and 599, got 200`,
				`4:7: gateway.faults[1] needs status (an HTTP error status, e.g. 429) or fault (timeout, truncate, drop)`,
				`5:30: gateway.faults[2] has both status and fault; a call gets one of them`,
				`6:24: gateway.faults[3].fault: unknown fault "timout"; the faults are timeout, truncate, drop (an HTTP status is written status: 429) (did you mean "timeout"?)`,
				`7:30: gateway.faults[4].retry_after goes with status: it is the Retry-After header of an HTTP error answer`,
				`8:7: gateway.faults[5] is missing required field "call"`,
				`10:7: gateway.faults[7]: call 4 already has a fault (gateway.faults[0], line 9)`,
				`11:14: gateway.faults[8].turn must be at least 0, got -1`,
			}},
		{name: "turn faults apart from test faults",
			src:  "gateway: {faults: [{call: 1, status: 429}, {turn: 1, call: 1, status: 429}]}",
			want: []Fault{{Call: 1, Status: 429}, {Turn: &one, Call: 1, Status: 429}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := readYAML(t, tc.src, ReadTest)
			if !reflect.DeepEqual(errs, tc.errs) {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(tc.errs, "\n"))
			}
			if tc.errs != nil {
				return
			}
			for i := range got.Faults {
				got.Faults[i].Pos = diag.Pos{}
			}
			if !reflect.DeepEqual(got.Faults, tc.want) {
				t.Errorf("got %+v, want %+v", got.Faults, tc.want)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); got != m || err != nil {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseMode("Record"); err == nil || err.Error() != `unknown mode "Record"; the modes are passthrough, record and replay` {
		t.Errorf("ParseMode(Record): %v", err)
	}
}

func TestSchemas(t *testing.T) {
	// Object panics when a field has no property.
	for _, s := range []decode.Obj{ConfigSchema(), TestSchema()} {
		if s["type"] != "object" {
			t.Errorf("schema %v is not an object's", s)
		}
	}
}
