package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

const (
	// cardPath is where a base URL's agent card is (A2A 0.3 and 1.0).
	cardPath = "/.well-known/agent-card.json"
	// legacyCardPath is where A2A 0.2 agents served it.
	legacyCardPath = "/.well-known/agent.json"
	// cardLimit bounds the size of an agent card.
	cardLimit = 4 << 20
)

// fetchCard gets the agent card at cardURL: the card itself when the URL
// names a .json file, else the base URL's well-known card (the A2A 0.2
// path as a fallback when that one is not found).
func fetchCard(ctx context.Context, hc *http.Client, cardURL string) (json.RawMessage, error) {
	u, err := url.Parse(cardURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("agent card URL %q is not an http(s) URL", cardURL)
	}
	if strings.HasSuffix(u.Path, ".json") {
		return getCard(ctx, hc, u.String())
	}
	base := strings.TrimSuffix(u.String(), "/")
	body, err := getCard(ctx, hc, base+cardPath)
	var nf *cardStatusError
	if errors.As(err, &nf) && nf.code == http.StatusNotFound {
		if legacy, lerr := getCard(ctx, hc, base+legacyCardPath); lerr == nil {
			return legacy, nil
		}
	}
	return body, err
}

// cardStatusError is a card request answered with a status other than 200.
type cardStatusError struct {
	url    string
	code   int
	status string
}

func (e *cardStatusError) Error() string {
	if e.code == http.StatusNotFound {
		return fmt.Sprintf("agent card not found at %s (HTTP %s)", e.url, e.status)
	}
	return fmt.Sprintf("agent card %s: HTTP %s", e.url, e.status)
}

func getCard(ctx context.Context, hc *http.Client, u string) (json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("agent card request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	// A server that also speaks 0.3 answers a request without a version
	// with its 0.3 card: ask for the newest, which lists every interface.
	req.Header.Set(a2a.SvcParamVersion, string(a2a.Version))
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch agent card: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &cardStatusError{url: u, code: resp.StatusCode, status: resp.Status}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, cardLimit))
	if err != nil {
		return nil, fmt.Errorf("read agent card %s: %w", u, err)
	}
	if !json.Valid(body) {
		return nil, fmt.Errorf("agent card %s is not JSON (%s)", u, excerpt(body))
	}
	return body, nil
}

// excerpt is the start of a body that was not what was expected.
func excerpt(b []byte) string {
	const n = 60
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		s = s[:n] + "…"
	}
	if s == "" {
		return "empty"
	}
	return fmt.Sprintf("%q", s)
}

// parseCard reads a card of A2A 1.0 or 0.3 into the SDK's 1.0 model, as
// far as Ananke reads it: its name, whether it streams, its interfaces.
func parseCard(raw json.RawMessage) (*a2a.AgentCard, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("agent card is not a JSON object: %w", err)
	}
	var c cardJSON
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("read agent card: %w", err)
	}
	return &a2a.AgentCard{Name: c.Name, Capabilities: c.Capabilities, SupportedInterfaces: c.interfaces()}, nil
}

// cardJSON is what Ananke reads of an agent card: A2A 1.0 lists its
// interfaces (supportedInterfaces); 0.3 gives its main one (url,
// preferredTransport, protocolVersion) and others (additionalInterfaces).
// The fields it does not read are not checked.
type cardJSON struct {
	Name                string                `json:"name"`
	Capabilities        a2a.AgentCapabilities `json:"capabilities"`
	SupportedInterfaces []*a2a.AgentInterface `json:"supportedInterfaces"`

	URL                  string                `json:"url"`
	ProtocolVersion      a2a.ProtocolVersion   `json:"protocolVersion"`
	PreferredTransport   a2a.TransportProtocol `json:"preferredTransport"`
	AdditionalInterfaces []struct {
		Transport a2a.TransportProtocol `json:"transport"`
		URL       string                `json:"url"`
	} `json:"additionalInterfaces"`
}

// interfaces are a card's interfaces: 1.0's list, or those of a 0.3 card,
// all of its protocol version (0.3 when it names none). An additional
// interface at the main URL is the main one. A 0.3 card that names no
// transport for its main URL is spoken to there over JSON-RPC, 0.3's
// default, when it offers nothing else.
func (c *cardJSON) interfaces() []*a2a.AgentInterface {
	if len(c.SupportedInterfaces) > 0 {
		return c.SupportedInterfaces
	}
	v := c.ProtocolVersion
	if v == "" {
		v = v03Version
	}
	var out []*a2a.AgentInterface
	if c.URL != "" && c.PreferredTransport != "" {
		out = append(out, &a2a.AgentInterface{URL: c.URL, ProtocolBinding: c.PreferredTransport, ProtocolVersion: v})
	}
	for _, in := range c.AdditionalInterfaces {
		if in.URL != c.URL {
			out = append(out, &a2a.AgentInterface{URL: in.URL, ProtocolBinding: in.Transport, ProtocolVersion: v})
		}
	}
	if len(out) == 0 && c.URL != "" {
		out = append(out, &a2a.AgentInterface{URL: c.URL, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: v})
	}
	return out
}

// pickInterface chooses the JSON-RPC interface of the newest protocol
// version Ananke speaks (1.x, or 0.x through the 0.3 compatibility).
func pickInterface(card *a2a.AgentCard) (*a2a.AgentInterface, error) {
	var best *a2a.AgentInterface
	for _, in := range card.SupportedInterfaces {
		if in == nil || !strings.EqualFold(string(in.ProtocolBinding), string(a2a.TransportProtocolJSONRPC)) {
			continue
		}
		v, ok := parseVersion(in.ProtocolVersion)
		if !ok || v[0] > 1 {
			continue
		}
		if b, _ := parseVersion(bestVersion(best)); best == nil || v[0] > b[0] || v[0] == b[0] && v[1] > b[1] {
			best = in
		}
	}
	if best == nil {
		var offers []string
		for _, in := range card.SupportedInterfaces {
			if in != nil {
				offers = append(offers, fmt.Sprintf("%s %s", in.ProtocolBinding, versionOf(in.ProtocolVersion)))
			}
		}
		if len(offers) == 0 {
			return nil, errors.New("no usable interface: the agent card lists no interface")
		}
		slices.Sort(offers)
		return nil, fmt.Errorf("no usable interface: the agent card offers %s; Ananke speaks JSONRPC 1.0 and 0.3", strings.Join(offers, ", "))
	}
	in := *best
	in.ProtocolBinding = a2a.TransportProtocolJSONRPC
	in.ProtocolVersion = a2a.ProtocolVersion(versionOf(in.ProtocolVersion))
	return &in, nil
}

// versionOf is an interface's protocol version; an interface without one
// is taken for 1.0.
func versionOf(v a2a.ProtocolVersion) string {
	if v == "" {
		return string(a2a.Version)
	}
	return strings.TrimPrefix(string(v), "v")
}

func bestVersion(in *a2a.AgentInterface) a2a.ProtocolVersion {
	if in == nil {
		return ""
	}
	return in.ProtocolVersion
}

// majorMinor is the version an interface speaks as the trace names it:
// "0.3" whether its card says "0.3" or "0.3.0" (SDKs differ), "1.0" for
// "1", "v1" or none.
func majorMinor(v a2a.ProtocolVersion) string {
	n, ok := parseVersion(v)
	if !ok {
		return versionOf(v)
	}
	return fmt.Sprintf("%d.%d", n[0], n[1])
}

// parseVersion reads "1.0", "0.3.0" or "v1" into its major and minor
// numbers.
func parseVersion(v a2a.ProtocolVersion) ([2]int, bool) {
	var out [2]int
	parts := strings.Split(versionOf(v), ".")
	for i := 0; i < len(parts) && i < 2; i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}
