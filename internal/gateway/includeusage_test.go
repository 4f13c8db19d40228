package gateway

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

// askBare is a streamed request that does not ask for usage, as an agent
// built on the AI SDK sends it.
const askBare = `{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"How many A-1 are in stock?"}]}`

// jsonOf decodes a JSON object for comparison.
func jsonOf(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}

// TestIncludeUsage: a streamed request that does not set
// stream_options.include_usage goes upstream with it set to true, in
// passthrough and record; any other request goes as sent.
func TestIncludeUsage(t *testing.T) {
	asked := `"stream_options":{"include_usage":true},`
	for _, tc := range []struct {
		name, req string
		leave     bool
		want      string // what the upstream gets, as JSON
	}{
		{name: "no stream_options", req: askBare, want: strings.Replace(askBare, `"stream"`, asked+`"stream"`, 1)},
		{name: "null stream_options", req: strings.Replace(askBare, `"stream"`, `"stream_options":null,"stream"`, 1),
			want: strings.Replace(askBare, `"stream"`, asked+`"stream"`, 1)},
		{name: "other stream_options kept",
			req:  strings.Replace(askBare, `"stream"`, `"stream_options":{"include_obfuscation":false},"stream"`, 1),
			want: strings.Replace(askBare, `"stream"`, `"stream_options":{"include_obfuscation":false,"include_usage":true},"stream"`, 1)},
		{name: "the agent asked for usage", req: askStream, want: askStream},
		{name: "the agent asked for no usage",
			req:  strings.Replace(askStream, `"include_usage":true`, `"include_usage":false`, 1),
			want: strings.Replace(askStream, `"include_usage":true`, `"include_usage":false`, 1)},
		{name: "stream_options not an object", req: strings.Replace(askBare, `"stream"`, `"stream_options":"x","stream"`, 1),
			want: strings.Replace(askBare, `"stream"`, `"stream_options":"x","stream"`, 1)},
		{name: "not streamed", req: askStock, want: askStock},
		{name: "stream false", req: strings.Replace(askBare, `"stream":true`, `"stream":false`, 1),
			want: strings.Replace(askBare, `"stream":true`, `"stream":false`, 1)},
		{name: "include_usage: false", req: askBare, leave: true, want: askBare},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []Mode{Passthrough, Record} {
				up := newUpstream(t, streamAnswer(streamChunks...))
				r := newRig(t, Options{Mode: mode, Upstream: up.URL, Dir: t.TempDir(), LeaveStreamOptions: tc.leave})
				r.post(t, tc.req)
				got := up.seen()
				if len(got) != 1 {
					t.Fatalf("%s: the upstream got %d requests", mode, len(got))
				}
				if !reflect.DeepEqual(jsonOf(t, got[0].body), jsonOf(t, tc.want)) {
					t.Errorf("%s: the upstream got\n%s\nwant\n%s", mode, got[0].body, tc.want)
				}
				if tc.want == tc.req && got[0].body != tc.req {
					t.Errorf("%s: a request left as sent was rewritten:\n%s", mode, got[0].body)
				}
			}
		})
	}
}

// usageIfAsked streams streamChunks as the OpenAI API does: the last,
// the usage, only when the request asked for it.
func usageIfAsked(w http.ResponseWriter, r *http.Request) {
	var req struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	body, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(body, &req)
	chunks := streamChunks
	if !req.StreamOptions.IncludeUsage {
		chunks = chunks[:len(chunks)-1]
	}
	streamAnswer(chunks...)(w, r)
}

// TestIncludeUsageRecorded: the recording keeps the agent's request as
// sent, and the stream with its usage chunk; replay matches the agent's
// request and sends the usage chunk back, and both model calls have the
// usage.
func TestIncludeUsageRecorded(t *testing.T) {
	dir := t.TempDir()
	up := newUpstream(t, usageIfAsked)
	rec := newRig(t, Options{Mode: Record, Upstream: up.URL, Dir: dir})
	_, _, recorded := rec.post(t, askBare)
	recCalls := rec.calls()
	if err := rec.g.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName(testID)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("the recording has %d lines, want a header and one exchange:\n%s", len(lines), b)
	}
	var e Exchange
	if err := json.Unmarshal([]byte(lines[1]), &e); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(jsonOf(t, string(e.Request)), jsonOf(t, askBare)) {
		t.Errorf("recorded request %s, want the agent's %s", e.Request, askBare)
	}
	if len(e.Chunks) != len(streamChunks) || string(e.Chunks[len(e.Chunks)-1]) != streamChunks[len(streamChunks)-1] {
		t.Errorf("recorded chunks %s, want every chunk, the usage last", e.Chunks)
	}

	rp := newRig(t, Options{Mode: Replay, Dir: dir})
	status, _, replayed := rp.post(t, askBare)
	if status != 200 || replayed != recorded {
		t.Errorf("replay: %d\n%s\nwant\n%s", status, replayed, recorded)
	}
	if events := dataOf(replayed); len(events) != len(streamChunks)+1 || events[len(events)-2] != streamChunks[len(streamChunks)-1] {
		t.Errorf("replayed events %q, want the usage chunk before [DONE]", events)
	}
	want := &cost.Usage{Model: "gpt-4o-mini-2024-07-18", Tokens: tokens(map[cost.Field]int64{cost.Input: 12, cost.Output: 5, cost.Total: 17, cost.Reasoning: 0})}
	for i, mcs := range [][]trace.ModelCall{recCalls, rp.calls()} {
		if len(mcs) != 1 || !reflect.DeepEqual(mcs[0].Usage, want) {
			t.Errorf("model calls %d: %+v, want one with usage %+v", i, mcs, want)
		}
	}
}
