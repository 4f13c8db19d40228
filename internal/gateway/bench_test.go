package gateway

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// benchChunks is the data of a streamed answer of 50 chunks, as a model
// sends them: the role, 47 text deltas, the finish, then the usage (the
// chunk include_usage asks for).
var benchChunks = func() []string {
	const head = `{"id":"chatcmpl-b","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[`
	out := []string{head + `{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`}
	for i := range 47 {
		out = append(out, fmt.Sprintf(head+`{"index":0,"delta":{"content":"word%02d "},"finish_reason":null}]}`, i))
	}
	out = append(out, head+`{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		head+`],"usage":{"prompt_tokens":120,"completion_tokens":48,"total_tokens":168}}`)
	return out
}()

// benchAsk is a streamed request as the AI SDK sends it: without
// stream_options, which the gateway adds.
const benchAsk = `{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"system","content":"You are a shop assistant."},{"role":"user","content":"How many A-1 are in stock?"}],` +
	`"tools":[{"type":"function","function":{"name":"check_stock","parameters":{"type":"object"}}}],"tool_choice":"auto"}`

// benchUpstream is a model in process, over loopback, that streams
// benchChunks, each flushed as a model sends it, then [DONE].
func benchUpstream(b *testing.B) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		for _, c := range benchChunks {
			_, _ = io.WriteString(w, "data: "+c+"\n\n")
			f.Flush()
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	b.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// benchStream asks the gateway of r for a streamed chat completion as an
// agent does, reads the whole stream into buf (reused, so that reading
// allocates nothing once it has grown) and checks it is the model's: 50
// chunks and [DONE], and the model call with its usage.
func benchStream(b *testing.B, r *rig, buf *bytes.Buffer) {
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+"/v1/chat/completions", strings.NewReader(benchAsk))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	buf.Reset()
	_, err = buf.ReadFrom(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || bytes.Count(buf.Bytes(), []byte("data: ")) != len(benchChunks)+1 || !bytes.HasSuffix(buf.Bytes(), []byte("data: [DONE]\n\n")) {
		b.Fatalf("status %d, error %v, stream %q", resp.StatusCode, err, buf.String())
	}
	if _, mcs := r.bd.Take(0); len(mcs) != 1 || mcs[0].Usage == nil {
		b.Fatalf("model calls %+v, want the one with its usage", mcs)
	}
}

// BenchmarkPassthrough measures one streamed chat completion of 50 chunks
// through the gateway in passthrough: the agent's request over loopback,
// attributed to the bound attempt, forwarded with include_usage to a
// model in process that flushes each chunk, each chunk relayed and
// flushed to the agent as it arrives, and the model call with its usage
// taken from the attempt. Allocations are the agent's, the gateway's and
// the model's together.
func BenchmarkPassthrough(b *testing.B) {
	r := newRig(b, Options{Mode: Passthrough, Upstream: benchUpstream(b)})
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		benchStream(b, r, &buf)
	}
}

// BenchmarkReplay measures the same streamed chat completion answered
// from a recording: the request fingerprinted and matched to the
// recorded exchange, its 50 chunks sent to the agent; no model.
func BenchmarkReplay(b *testing.B) {
	dir := b.TempDir()
	var buf bytes.Buffer
	rec := newRig(b, Options{Mode: Record, Upstream: benchUpstream(b), Dir: dir})
	benchStream(b, rec, &buf)
	if err := rec.g.Close(); err != nil {
		b.Fatal(err)
	}
	r := newRig(b, Options{Mode: Replay, Dir: dir})
	b.ReportAllocs()
	for b.Loop() {
		benchStream(b, r, &buf)
	}
}
