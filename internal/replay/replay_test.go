package replay

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/spec"
)

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name, recorded, sent string
		want                 []string
	}{
		{"same", `{"a":1,"b":["x"]}`, `{"b":["x"],"a":1}`, nil},
		{"ids by use", `{"threadId":"t1","runId":"r1","messages":[{"id":"m1","content":"hi"}]}`,
			`{"threadId":"T","runId":"R","messages":[{"id":"M","content":"hi"}]}`, nil},
		{"an id reused differently", `{"runId":"r1","parentRunId":"r1"}`, `{"runId":"A","parentRunId":"B"}`,
			[]string{`runId: recorded "r1", sent "A"`}},
		{"changed text", `{"messages":[{"content":"Paris"}]}`, `{"messages":[{"content":"Lyon"}]}`,
			[]string{`messages[0].content: recorded "Paris", sent "Lyon"`}},
		{"masked secret", `{"state":{"token":"Bearer ***"}}`, `{"state":{"token":"Bearer abc123"}}`, nil},
		{"masked, but the rest changed", `{"state":{"token":"Bearer ***"}}`, `{"state":{"token":"Basic abc123"}}`,
			[]string{`state.token: recorded "Bearer ***", sent "Basic abc123"`}},
		{"added and removed", `{"messages":[1,2],"old":true}`, `{"messages":[1],"new":null}`,
			[]string{`messages[1]: recorded 2, sent (none)`, `new: recorded (none), sent null`, `old: recorded true, sent (none)`}},
		{"another type", `{"a":true,"b":1}`, `{"a":"true","b":1}`, []string{`a: recorded true, sent "true"`}},
		{"not JSON", `"x"`, `nope`, []string{`the body: recorded "x", sent nope`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range Compare(json.RawMessage(c.recorded), json.RawMessage(c.sent), map[string]string{}) {
				got = append(got, d.String())
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestRecordAndPlay records a chunked stream through a real HTTP server,
// masked, then plays it back with new ids, at the recorded times.
func TestRecordAndPlay(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, s := range []string{`data: {"type":"RUN_STARTED","runId":"` + in.RunID + `"}` + "\n\n", `data: {"type":"TEXT","delta":"the sekret is`, ` out"}` + "\n\n"} {
			io.WriteString(w, s)
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := &spec.Test{ID: "suite/one", Path: filepath.Join(dir, "one.ananke.yaml")}
	os.WriteFile(test.Path, []byte("name: one\n"), 0o644)
	rec, err := NewRecorder(filepath.Join(dir, "rec"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	io0 := rec.Attempt(test, 0, 0, srv.Client())
	body := func(run string) io.Reader {
		return strings.NewReader(`{"threadId":"t","runId":"` + run + `","content":"sekret"}`)
	}
	resp, err := io0.HTTP.Post(srv.URL, "application/json", body("r1"))
	if err != nil {
		t.Fatal(err)
	}
	live, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	mask := strings.NewReplacer("sekret", "***").Replace
	if err := rec.Write(&spec.Suite{Tests: []*spec.Test{test}}, Meta{Version: "test"}, mask); err != nil {
		t.Fatal(err)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "rec", ".partial-*")); len(entries) > 0 {
		t.Errorf("partial files left: %v", entries)
	}

	p, err := Open(filepath.Join(dir, "rec"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	io1 := p.Attempt(test, 0, 0, http.DefaultClient)
	start := io1.Now()
	resp, err = io1.HTTP.Post("http://agent.invalid/", "application/json", body("R2"))
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	var times []time.Duration
	buf := make([]byte, 8)
	for {
		n, err := resp.Body.Read(buf)
		got = append(got, buf[:n]...)
		times = append(times, io1.Now().Sub(start))
		if err != nil {
			break
		}
	}
	want := strings.ReplaceAll(strings.ReplaceAll(string(live), "sekret", "***"), `"runId":"r1"`, `"runId":"R2"`)
	if string(got) != want {
		t.Errorf("replayed %q\nwant %q", got, want)
	}
	if last := times[len(times)-1]; last < 30*time.Millisecond {
		t.Errorf("the replayed clock ended at %v; the stream took over 40 ms", last)
	}
	if _, err := io1.HTTP.Post("http://agent.invalid/", "application/json", body("R3")); err == nil || !strings.Contains(err.Error(), "sent request 2, and the recording has 1") {
		t.Errorf("an extra request: %v", err)
	}
	io2 := p.Attempt(test, 1, 0, http.DefaultClient)
	if _, err := io2.HTTP.Post("http://agent.invalid/", "application/json", body("R4")); err == nil || !strings.Contains(err.Error(), "no run 1 of this test") {
		t.Errorf("a run not recorded: %v", err)
	}
	io3 := p.Attempt(test, 0, 0, http.DefaultClient)
	// A masked value matches any secret; the rest must match.
	_, err = io3.HTTP.Post("http://agent.invalid/", "application/json", strings.NewReader(`{"threadId":"t","runId":"x","content":"another","n":1}`))
	if err == nil || !strings.Contains(err.Error(), `request 1 differs from the recording: n: recorded (none), sent 1`) {
		t.Errorf("a changed request: %v", err)
	}
}
