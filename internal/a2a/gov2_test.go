package a2a

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// The tests below also run against agents served by the a2a-go v2 SDK's
// server side (a2asrv; a2acompat/a2av0 for an agent that speaks only A2A
// 0.3), in process: another implementation than @a2a-js/sdk's.

// goExecutor answers like testdata/interop/a2a-agent.mjs does, for the
// replies the tests below need: "hello" → a message; "convert 10 EUR" →
// a task whose artifact is streamed in two chunks, "10 EUR = " and
// "11.70 USD" (the second appended), then completed; anything else → "You
// said: …".
type goExecutor struct{}

func (goExecutor) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		said := strings.TrimSpace(textOf(ec.Message.Parts))
		switch said {
		case "hello":
			yield(a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("Hello! How can I help?")), nil)
		case "convert 10 EUR":
			const id = a2a.ArtifactID("conversion")
			first := a2a.NewArtifactUpdateEvent(ec, id, a2a.NewTextPart("10 EUR = "))
			first.Append = false
			_ = yield(a2a.NewSubmittedTask(ec, ec.Message), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) &&
				yield(first, nil) &&
				yield(a2a.NewArtifactUpdateEvent(ec, id, a2a.NewTextPart("11.70 USD")), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		case "report":
			const id = a2a.ArtifactID("report")
			first := a2a.NewArtifactUpdateEvent(ec, id, reportParts[:2]...)
			first.Append = false
			_ = yield(a2a.NewSubmittedTask(ec, ec.Message), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking,
					a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("Here is your report."))), nil) &&
				yield(first, nil) &&
				yield(a2a.NewArtifactUpdateEvent(ec, id, reportParts[2:]...), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		case "what did I send":
			var got []string
			for _, p := range ec.Message.Parts {
				switch c := p.Content.(type) {
				case a2a.Text:
					got = append(got, "text "+string(c))
				case a2a.Raw:
					got = append(got, fmt.Sprintf("file %s %s %q", p.Filename, p.MediaType, c))
				}
			}
			yield(a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(strings.Join(got, "; "))), nil)
		default:
			yield(a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("You said: "+said)), nil)
		}
	}
}

// reportParts are the "report" task's artifact, in two chunks (the first
// two parts, then the rest appended): a text, a data part, then files —
// a CSV, a chart by its URI, a PNG, a JSON document.
var reportParts = []*a2a.Part{
	a2a.NewTextPart("Total: "),
	a2a.NewDataPart(map[string]any{"total": 42, "currency": "EUR", "note": "<b>&</b>"}),
	{Content: a2a.Raw("a,b\n1,2\n"), MediaType: "text/csv", Filename: "totals.csv"},
	{Content: a2a.URL("https://files.example.com/chart.png"), MediaType: "image/png", Filename: "chart.png"},
	{Content: a2a.Raw(pngBytes), MediaType: "image/png", Filename: "logo.png"},
	{Content: a2a.Raw(`{"ok": true}`), MediaType: "application/json; charset=utf-8", Filename: "r.json"},
}

// pngBytes are the start of a PNG file.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func (goExecutor) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// goAgent serves an a2a-go v2 agent: its card at
// /.well-known/agent-card.json, JSON-RPC at /rpc. version "1.0" is the
// SDK's own protocol; "0.3" serves only 0.3, with the SDK's 0.3 card.
func goAgent(t *testing.T, version string, streaming bool) string {
	t.Helper()
	handler := a2asrv.NewHandler(goExecutor{})
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	card := &a2a.AgentCard{Name: "go-agent-" + version, Description: "a2a-go v2", Version: "1.0.0",
		Capabilities:       a2a.AgentCapabilities{Streaming: streaming},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		SupportedInterfaces: []*a2a.AgentInterface{{URL: srv.URL + "/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC,
			ProtocolVersion: a2a.ProtocolVersion(version)}},
	}
	switch version {
	case "1.0":
		mux.Handle("/rpc", a2asrv.NewJSONRPCHandler(handler))
		mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	case "0.3":
		card.SupportedInterfaces[0].ProtocolVersion = a2av0.Version
		mux.Handle("/rpc", a2av0.NewJSONRPCHandler(handler))
		mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(card)))
	default:
		t.Fatalf("goAgent: version %q", version)
	}
	return srv.URL
}
