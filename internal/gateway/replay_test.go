package gateway

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/trace"
)

const serverError = `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`

// askStockLater is askStock on another day, from another run: its tool
// call ids and dates differ, and they do not count.
var askStockLater = strings.Replace(askStock, "2026-11-27T10:00:00Z", "2027-01-03T08:15:00+01:00", 1)

// TestRecordReplay: what record keeps, replay answers with, byte for
// byte, with no upstream: the same request made again (a retry) gets the
// next recorded answer in order, and the last one past the end.
func TestRecordReplay(t *testing.T) {
	dir := t.TempDir()
	up := newUpstream(t, jsonAnswer(500, serverError), jsonAnswer(200, toolAnswer), streamAnswer(streamChunks...))
	rec := newRig(t, Options{Mode: Record, Upstream: up.URL, APIKey: testKey, Dir: dir, Ignore: []string{"metadata"}})
	reqs := []string{askStock, askStock, askStream}
	var recorded []string
	for _, req := range reqs {
		status, _, body := rec.post(t, req)
		recorded = append(recorded, http.StatusText(status)+" "+body)
	}
	recCalls := rec.calls()
	if err := rec.g.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, FileName(testID))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), testKey) || strings.Contains(string(b), "agent-own-key") {
		t.Error("the recording holds a key")
	}
	golden.Assert(t, "testdata/golden/record.jsonl", string(b))

	rp := newRig(t, Options{Mode: Replay, Dir: dir, Ignore: []string{"metadata"}})
	// the same requests, on another day, with metadata the fingerprint
	// ignores; askStock a third time gets the last recorded answer again
	later := strings.Replace(askStockLater, `"model"`, `"metadata":{"run":"7"},"model"`, 1)
	for i, req := range []string{later, askStock, askStream, askStock} {
		status, _, body := rp.post(t, req)
		want := recorded[min(i, 1)]
		if i == 2 {
			want = recorded[2]
		}
		if got := http.StatusText(status) + " " + body; got != want {
			t.Errorf("replay %d:\n%s\nwant\n%s", i, got, want)
		}
	}
	if len(up.seen()) != 3 {
		t.Errorf("the upstream got %d requests, want the 3 recorded", len(up.seen()))
	}
	calls := rp.calls()
	if len(calls) != 4 {
		t.Fatalf("%d model calls in replay, want 4", len(calls))
	}
	// replayed calls say what the recorded ones said, but their mode
	for i, c := range []trace.ModelCall{calls[0], calls[1], calls[2]} {
		want := recCalls[i]
		want.Mode, want.StartedMs, want.EndedMs = "replay", c.StartedMs, c.EndedMs
		want.Note = strings.Replace(want.Note, "the upstream answered", "the recorded answer is", 1)
		if !reflect.DeepEqual(c, want) {
			t.Errorf("replayed call %d\n%+v\nwant\n%+v", i, c, want)
		}
	}
}

// TestRecordAttempts: each attempt of a test is recorded after the one
// before, whatever the order its calls came in.
func TestRecordAttempts(t *testing.T) {
	dir := t.TempDir()
	up := newUpstream(t, jsonAnswer(200, toolAnswer))
	r := newRig(t, Options{Mode: Record, Upstream: up.URL, Dir: dir})
	r.post(t, askStock) // attempt 1
	r.bd.Release()
	second := r.board.Bind(testID)
	second.SetTurn(1)
	r.post(t, askStream)
	if err := r.g.Save(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, FileName(testID)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, diags := parseRecording("r.jsonl", f, nil)
	if diags != nil {
		t.Fatal(diags)
	}
	var got [][2]int
	for _, e := range rec.exchanges {
		got = append(got, [2]int{e.Attempt, e.Turn})
	}
	if want := [][2]int{{1, 0}, {2, 1}}; !reflect.DeepEqual(got, want) || rec.test != testID {
		t.Errorf("test %q, (attempt, turn) %v, want %q, %v", rec.test, got, testID, want)
	}
}

// TestReplayMiss: a request with no recording is an error to the agent,
// and its model call names the closest recorded request and the lines
// that differ.
func TestReplayMiss(t *testing.T) {
	dir := t.TempDir()
	up := newUpstream(t, jsonAnswer(200, toolAnswer))
	rec := newRig(t, Options{Mode: Record, Upstream: up.URL, Dir: dir})
	rec.post(t, askStock)
	rec.post(t, askStream)
	if err := rec.g.Save(); err != nil {
		t.Fatal(err)
	}
	rp := newRig(t, Options{Mode: Replay, Dir: dir})
	changed := strings.Replace(askStock, "How many A-1 are in stock?", "How many B-2 are in stock?", 1)
	status, _, body := rp.post(t, changed)
	if status != http.StatusNotFound || !strings.Contains(body, `replay: no recorded answer to this request for test \"shop/stock\"; the run's report shows the closest recorded request and how this one differs`) {
		t.Errorf("status %d, body %s", status, body)
	}
	mc := rp.calls()[0]
	want := `replay: no recorded answer to this request for test "shop/stock" (` + filepath.Join(dir, FileName(testID)) + ` holds 2); the closest is line 2 (turn 0); recorded (-), this request (+):
  …
        "role": "system"
      },
      {
-       "content": "How many A-1 are in stock?",
+       "content": "How many B-2 are in stock?",
        "role": "user"
      }
    ],
  …`
	if mc.Error != want || mc.Status != http.StatusNotFound {
		t.Errorf("status %d, error\n%s\nwant\n%s", mc.Status, mc.Error, want)
	}

	other := newRig(t, Options{Mode: Replay, Dir: dir, Board: nil})
	other.bd.Release()
	bd := other.board.Bind("shop/other")
	other.post(t, askStock)
	_, mcs := bd.Take(0)
	if want := `replay: test "shop/other" has no recording in ` + dir + `; record it first (ananke run --gateway record)`; len(mcs) != 1 || mcs[0].Error != want {
		t.Errorf("calls %+v, want the error %q", mcs, want)
	}
}

// TestReplayNeedsRecordings: replay without a recordings directory is an
// error when the gateway is made.
func TestReplayNeedsRecordings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "none")
	_, err := New(Options{Mode: Replay, Dir: dir, Board: newRig(t, Options{Mode: Replay, Dir: t.TempDir()}).board})
	if want := "gateway: replay: there is no recordings directory " + dir + "; record the tests first (ananke run --gateway record)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestModels: replay lists the models the recordings asked for; the
// other modes ask the upstream, with the key.
func TestModels(t *testing.T) {
	dir := t.TempDir()
	list := `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model"}]}`
	up := newUpstream(t, jsonAnswer(200, toolAnswer), jsonAnswer(200, toolAnswer), jsonAnswer(200, list))
	rec := newRig(t, Options{Mode: Record, Upstream: up.URL + "/v1", APIKey: testKey, Dir: dir})
	rec.post(t, askStock)
	rec.post(t, strings.Replace(askStream, "gpt-4o-mini", "gpt-4.1", 1))
	if err := rec.g.Save(); err != nil {
		t.Fatal(err)
	}
	get := func(url string) string {
		resp, err := http.Get(url + "/v1/models")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := get(rec.srv.URL); got != list {
		t.Errorf("record: models %s, want the upstream's %s", got, list)
	}
	if s := up.seen(); s[2].path != "/v1/models" || s[2].auth != "Bearer "+testKey {
		t.Errorf("the upstream got %+v", s[2])
	}
	rp := newRig(t, Options{Mode: Replay, Dir: dir})
	want := `{"data":[{"created":0,"id":"gpt-4.1","object":"model","owned_by":"ananke-gateway"},{"created":0,"id":"gpt-4o-mini","object":"model","owned_by":"ananke-gateway"}],"object":"list"}` + "\n"
	if got := get(rp.srv.URL); got != want {
		t.Errorf("replay: models %s, want %s", got, want)
	}
	if len(rec.calls())+len(rp.calls()) != 2 {
		t.Error("listing models made model calls")
	}
}
