package gateway

import (
	"net/http"
	"time"
)

// readHeaderTimeout bounds reading a request's header.
const readHeaderTimeout = 30 * time.Second

// Server is an HTTP server of Handler at addr with the gateway's bounds:
// reading a request's header takes at most 30 seconds, and reading the
// whole request at most the gateway's timeout. Answers are not bounded
// here: a stream lasts as long as the upstream's, which the timeout
// bounds, and a timeout fault holds the request on purpose.
func (g *Gateway) Server(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           g.Handler(),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       g.o.Timeout,
		IdleTimeout:       2 * time.Minute,
	}
}
