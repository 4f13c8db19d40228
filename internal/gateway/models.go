package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
)

// models answers GET …/models: in Replay with the models the recordings
// asked for, otherwise with the upstream's list. The list is no model
// call: it is neither attributed nor recorded.
func (g *Gateway) models(w http.ResponseWriter, r *http.Request) {
	if g.o.Mode == Replay {
		var names []string
		for _, rec := range g.recordings {
			for _, e := range rec.exchanges {
				if m, ok := e.norm["model"].(string); ok && !slices.Contains(names, m) {
					names = append(names, m)
				}
			}
		}
		slices.Sort(names)
		data := make([]map[string]any, len(names))
		for i, m := range names {
			data[i] = map[string]any{"id": m, "object": "model", "created": 0, "owned_by": "ananke-gateway"}
		}
		b, _ := json.Marshal(map[string]any{"object": "list", "data": data})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(b, '\n'))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.o.Timeout)
	defer cancel()
	out, err := http.NewRequestWithContext(ctx, http.MethodGet, g.endpoint("models"), nil)
	if err != nil {
		writeError(w, http.StatusBadGateway, "upstream_error", "the upstream request could not be made: "+err.Error())
		return
	}
	g.authorize(out, r)
	resp, err := g.client.Do(out)
	if err == nil {
		defer resp.Body.Close()
		var body []byte
		if body, err = io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes)); err == nil {
			w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
			w.WriteHeader(resp.StatusCode)
			_, _ = w.Write(body)
			return
		}
	}
	if ctx.Err() != nil {
		writeError(w, http.StatusGatewayTimeout, "upstream_timeout", "the upstream did not list its models within "+g.o.Timeout.String()+" (gateway.timeout_ms)")
		return
	}
	writeError(w, http.StatusBadGateway, "upstream_error", g.mask("the upstream did not list its models: "+describeErr(err)))
}
