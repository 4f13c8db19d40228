//go:build unix

package a2a

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	legacy "github.com/a2aproject/a2a-go/a2a"
	legacysrv "github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
)

// legacyExecutor is an agent of the a2a-go SDK's last 0.3 release, which
// speaks only A2A 0.3: it greets.
type legacyExecutor struct{}

func (legacyExecutor) Execute(ctx context.Context, rc *legacysrv.RequestContext, q eventqueue.Queue) error {
	return q.Write(ctx, legacy.NewMessageForTask(legacy.MessageRoleAgent, rc, legacy.TextPart{Text: "Hello! How can I help?"}))
}

func (legacyExecutor) Cancel(context.Context, *legacysrv.RequestContext, eventqueue.Queue) error {
	return nil
}

// legacyAgent serves a 0.3-only a2a-go agent: its card (protocolVersion
// "0.3.0", as that SDK writes it) at /.well-known/agent-card.json, JSON-RPC
// at /rpc.
func legacyAgent(t *testing.T, streaming bool) string {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	card := &legacy.AgentCard{Name: "legacy-go-agent", Description: "a2a-go 0.3", Version: "1.0.0",
		URL: srv.URL + "/rpc", PreferredTransport: legacy.TransportProtocolJSONRPC, ProtocolVersion: string(legacy.Version),
		Capabilities:       legacy.AgentCapabilities{Streaming: streaming},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []legacy.AgentSkill{},
	}
	mux.Handle("/rpc", legacysrv.NewJSONRPCHandler(legacysrv.NewHandler(legacyExecutor{})))
	mux.Handle("/.well-known/agent-card.json", legacysrv.NewStaticAgentCardHandler(card))
	return srv.URL
}

// TestZeroThreeAgents: agents that speak only A2A 0.3 — a2a-go's last 0.3
// release (its card says "0.3.0") and a2a-go v2's 0.3 server (its card
// says "0.3") — are reached through their cards, and the trace names the
// version alike; reached by a bare endpoint, which is spoken to as 1.0,
// they answer -32601, and the error says to give the card.
func TestZeroThreeAgents(t *testing.T) {
	for _, ag := range []struct{ name, url string }{
		{"a2a-go 0.3", legacyAgent(t, true)},
		{"a2a-go v2 0.3", goAgent(t, "0.3", true)},
	} {
		t.Run(ag.name+"/card", func(t *testing.T) {
			tr, src, errs := conversation(t, Options{CardURL: ag.url}, "hello")
			if errs[0] != nil {
				t.Fatal(errs[0])
			}
			if got := tr.Turns[0].Text(); got != "Hello! How can I help?" {
				t.Errorf("text %q", got)
			}
			if src.Version != "0.3" {
				t.Errorf("source version %q, want 0.3", src.Version)
			}
		})
		t.Run(ag.name+"/endpoint", func(t *testing.T) {
			_, err := play(t, Options{Endpoint: ag.url + "/rpc"}, "hello")
			want := "the agent answered JSON-RPC error -32601: method not found; an endpoint alone is spoken to as A2A 1.0 (SendMessage): " +
				"an A2A 0.3 agent does not know its methods — set agentCardUrl to the agent's card instead"
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %v, want it to start %q", err, want)
			}
		})
	}
	// With its card, the endpoint that failed alone works: the card says
	// which version to speak.
	url := legacyAgent(t, false)
	if turn, err := play(t, Options{CardURL: url, Endpoint: url + "/rpc"}, "hello"); err != nil || turn.Text() != "Hello! How can I help?" {
		t.Errorf("card and endpoint: %v, text %q", err, turn.Text())
	}
}
