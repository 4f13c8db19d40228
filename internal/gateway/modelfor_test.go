package gateway

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestModelFor: a test whose ModelFor names a model has its requests
// asked upstream for that model, recorded with it and shown with it in
// its model calls, the rest of the request unchanged; a test it names
// none for goes as the agent sent it; replay of the rewritten recording
// answers the rewritten request.
func TestModelFor(t *testing.T) {
	modelFor := func(id string) string {
		if id == testID {
			return "gpt-4o"
		}
		return ""
	}
	rewritten := strings.Replace(askStock, `"model":"gpt-4o-mini"`, `"model":"gpt-4o"`, 1)
	for _, tc := range []struct {
		name   string
		mode   Mode
		stream bool
	}{
		{"passthrough", Passthrough, false},
		{"record", Record, false},
		{"record stream", Record, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			req, want, answer := askStock, rewritten, jsonAnswer(200, toolAnswer)
			if tc.stream {
				req = askStream
				want = strings.Replace(askStream, `"model":"gpt-4o-mini"`, `"model":"gpt-4o"`, 1)
				answer = streamAnswer(streamChunks...)
			}
			up := newUpstream(t, answer)
			r := newRig(t, Options{Mode: tc.mode, Upstream: up.URL, Dir: dir, ModelFor: modelFor})
			if status, _, _ := r.post(t, req); status != 200 {
				t.Fatalf("status %d", status)
			}
			mcs := r.calls()
			r.bd.Release()
			other := r.board.Bind("other")
			r.post(t, req)
			_, otherCalls := other.Take(0)
			got := up.seen()
			if len(got) != 2 || len(mcs) != 1 || len(otherCalls) != 1 {
				t.Fatalf("upstream got %d requests, model calls %d and %d", len(got), len(mcs), len(otherCalls))
			}
			if !reflect.DeepEqual(jsonOf(t, got[0].body), jsonOf(t, want)) {
				t.Errorf("the upstream got\n%s\nwant\n%s", got[0].body, want)
			}
			if got[1].body != req {
				t.Errorf("a test without a model of its own: the upstream got\n%s\nwant it as sent\n%s", got[1].body, req)
			}
			if mcs[0].Model != "gpt-4o" || otherCalls[0].Model != "gpt-4o-mini" {
				t.Errorf("model calls' models %q and %q, want gpt-4o and gpt-4o-mini", mcs[0].Model, otherCalls[0].Model)
			}
			if tc.mode != Record {
				return
			}
			if err := r.g.Save(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, FileName(testID)))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"model":"gpt-4o",`) || strings.Contains(string(b), `"model":"gpt-4o-mini",`) {
				t.Errorf("the recording does not ask for the rewritten model:\n%s", b)
			}
			rp := newRig(t, Options{Mode: Replay, Dir: dir, ModelFor: modelFor})
			if status, _, body := rp.post(t, req); status != 200 {
				t.Errorf("replay of the rewritten request: status %d, body %s", status, body)
			}
		})
	}
}
