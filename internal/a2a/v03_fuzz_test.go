package a2a

import (
	"encoding/json"
	"reflect"
	"testing"

	legacy "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// sdkEvent reads a 0.3 event as the SDK's compatibility layer does.
func sdkEvent(raw []byte) (a2a.Event, error) {
	ev, err := legacy.UnmarshalEventJSON(raw)
	if err != nil {
		return nil, err
	}
	return a2av0.ToV1Event(ev)
}

// sdkTask reads a 0.3 task as the SDK's compatibility layer does.
func sdkTask(raw []byte) (*a2a.Task, error) {
	var t legacy.Task
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	return a2av0.ToV1Task(&t)
}

// FuzzV03Event: Ananke reads any 0.3 event, and any task, as the SDK's
// compatibility layer does: an error where it errs, else the same value,
// which records as the same JSON.
func FuzzV03Event(f *testing.F) {
	for _, s := range []string{msg03, working03, chunk1_03, chunk2_03, done03, asking03, failed03, task03("working"),
		`null`, `[]`, `{}`, `{"kind":5}`, `{"KIND":"message","Parts":[{"Kind":"text","TEXT":"a"}]}`,
		`{"kind":"message","parts":null,"role":"system"}`, `{"kind":"message","parts":[null]}`, `{"kind":"message","parts":{}}`,
		`{"kind":"task","status":null,"artifacts":[],"history":[null]}`, `{"kind":"task","status":{"state":"unknown","timestamp":"x"}}`,
		`{"kind":"artifact-update","artifact":null}`, `{"kind":"status-update","final":"yes"}`,
		`{"kind":"message","parts":[{"kind":"data"}]}`, `{"kind":"message","parts":[{"kind":"data","data":{"value":1},"metadata":{"data_part_compat":"true"}}]}`,
		`{"kind":"message","parts":[{"kind":"data","data":{},"metadata":{"data_part_compat":true}}]}`,
		`{"kind":"message","parts":[{"kind":"file","file":{"bytes":"eA==","uri":"u"}}]}`, `{"kind":"message","parts":[{"kind":"file","file":null}]}`,
		`{"kind":"message","parts":[{"kind":"text","text":"a","kind":"data","data":{"b":1}}]}`, `{"kind":"message","referenceTaskIds":[1]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		want, wantErr := sdkEvent([]byte(raw))
		got, err := v03Event([]byte(raw))
		same(t, "event", raw, got, err, want, wantErr)
		wantTask, wantErr := sdkTask([]byte(raw))
		gotTask, err := v03TaskOf([]byte(raw))
		same(t, "task", raw, gotTask, err, wantTask, wantErr)
	})
}

// same fails unless both read raw, or neither, to the same value.
func same[T any](t *testing.T, what, raw string, got T, err error, want T, wantErr error) {
	t.Helper()
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s %q: error %v; the SDK's %v", what, raw, err, wantErr)
	}
	if err != nil {
		return
	}
	g, gerr := json.Marshal(got)
	w, werr := json.Marshal(want)
	if string(g) != string(w) || (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %q:\n%s (%v)\nthe SDK's\n%s (%v)", what, raw, g, gerr, w, werr)
	}
}

// sdkCard reads a card as Ananke did with the SDK's compatibility layer's
// parser.
func sdkCard(raw []byte) (*a2a.AgentCard, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	card, err := a2av0.NewAgentCardParser()(raw)
	if err != nil {
		return nil, err
	}
	if len(card.SupportedInterfaces) == 0 {
		var legacy struct {
			URL             string `json:"url"`
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(raw, &legacy) == nil && legacy.URL != "" {
			v := a2a.ProtocolVersion(legacy.ProtocolVersion)
			if v == "" {
				v = a2av0.Version
			}
			card.SupportedInterfaces = []*a2a.AgentInterface{{URL: legacy.URL, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: v}}
		}
	}
	return card, nil
}

// FuzzV03Card: Ananke reads what it uses of any card — its name, whether
// it streams, its interfaces — as it did with the SDK's parser, and
// refuses no card the SDK's parser read. It reads cards the SDK's parser
// refused for fields Ananke does not use (a security scheme of an unknown
// type, skills of the wrong shape).
func FuzzV03Card(f *testing.F) {
	for _, s := range []string{
		`{"name":"old","url":"http://agent/rpc","protocolVersion":"0.3.0","capabilities":{"streaming":true}}`,
		`{"name":"both","capabilities":{},"supportedInterfaces":[{"url":"http://agent/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
			{"url":"http://agent/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"t"}]}`,
		`{"name":"g","supportedInterfaces":[{"url":"http://x","protocolBinding":"GRPC","protocolVersion":"1.0"}]}`,
		`{"name":"a","url":"http://a/rpc","preferredTransport":"JSONRPC","additionalInterfaces":[{"url":"http://a/rpc","transport":"JSONRPC"},
			{"url":"http://a/grpc","transport":"GRPC"}],"protocolVersion":"0.3.0"}`,
		`{"name":"no preferred","url":"http://a/rpc","additionalInterfaces":[{"url":"http://a/rest","transport":"HTTP+JSON"}]}`,
		`{"name":"old","url":"http://agent/rpc","protocolVersion":"0.2.5"}`,
		`{"name":"s","url":"http://a","securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X"},"o":{"type":"oauth2","flows":{}}}}`,
		`{"name":"s","url":"http://a","skills":{"not":"a list"},"supportsAuthenticatedExtendedCard":true}`,
		`{"NAME":"case","URL":"http://a","Capabilities":{"Streaming":true}}`,
		`{"name":1}`, `{"capabilities":{"streaming":"yes"}}`, `{"supportedInterfaces":[null]}`, `{"additionalInterfaces":[null],"url":"u"}`,
		`null`, `[1]`, `{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		want, wantErr := sdkCard([]byte(raw))
		got, err := parseCard(json.RawMessage(raw))
		if err != nil {
			if wantErr == nil {
				t.Fatalf("card %q: error %v; the SDK's parser read it", raw, err)
			}
			return
		}
		if wantErr != nil {
			return // refused for what Ananke does not read
		}
		sameInterfaces := len(got.SupportedInterfaces) == 0 && len(want.SupportedInterfaces) == 0 ||
			reflect.DeepEqual(got.SupportedInterfaces, want.SupportedInterfaces)
		if got.Name != want.Name || got.Capabilities.Streaming != want.Capabilities.Streaming || !sameInterfaces {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("card %q:\n%s\nthe SDK's\n%s", raw, g, w)
		}
	})
}
