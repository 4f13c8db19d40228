package backend

import "net/http"

// The headers that tell the agent where Ananke serves its backend, on
// every request of a bound attempt: an agent that cannot be told the
// addresses before it starts (a service container started before the
// run, docs/backend.md "Where the agent finds the backend") reads them
// from the request that starts its run.
const (
	DoublesURLHeader = "Ananke-Doubles-Url"
	GatewayURLHeader = "Ananke-Gateway-Url"
)

// Advertise sets the URLs the agent reaches the tool doubles and the
// model gateway at ("" for one not served). Call it before the run
// starts.
func (b *Board) Advertise(doublesURL, gatewayURL string) *Board {
	b.doublesURL, b.gatewayURL = doublesURL, gatewayURL
	return b
}

// URLs are the advertised URLs of the tool doubles and the gateway.
func (b *Board) URLs() (doublesURL, gatewayURL string) {
	if b == nil {
		return "", ""
	}
	return b.doublesURL, b.gatewayURL
}

// SetHeaders sets on h what every request of the attempt sends the
// agent: Header with its token, and the advertised URLs.
func (bd *Binding) SetHeaders(h http.Header) {
	h.Set(Header, bd.Token)
	if u := bd.board.doublesURL; u != "" {
		h.Set(DoublesURLHeader, u)
	}
	if u := bd.board.gatewayURL; u != "" {
		h.Set(GatewayURLHeader, u)
	}
}
