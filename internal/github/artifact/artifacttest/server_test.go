package artifacttest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a testing.TB that collects Errorf calls instead of failing,
// to check that the fake reports protocol violations.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, strings.TrimSpace(fmt.Sprintf(format, args...)))
}

func (r *recorder) errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// client drives the fake by hand, the way a correct uploader does unless
// a test changes a step.
type client struct {
	t   *testing.T
	s   *Server
	run string
	job string
}

func (c *client) twirp(method, token string, body any) (int, map[string]any) {
	c.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, c.s.URL+twirpPrefix+method, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.s.Client().Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (c *client) create(name string) string {
	c.t.Helper()
	_, out := c.twirp("CreateArtifact", c.s.Token(), c.createBody(name))
	u, _ := out["signed_upload_url"].(string)
	if u == "" {
		u, _ = out["signedUploadUrl"].(string)
	}
	if u == "" {
		c.t.Fatalf("CreateArtifact answered %v", out)
	}
	return u
}

func (c *client) createBody(name string) map[string]any {
	return map[string]any{"workflow_run_backend_id": c.run, "workflow_job_run_backend_id": c.job,
		"name": name, "version": 7, "mime_type": "application/zip"}
}

func (c *client) finalizeBody(name string, data []byte) map[string]any {
	sum := sha256.Sum256(data)
	return map[string]any{"workflow_run_backend_id": c.run, "workflow_job_run_backend_id": c.job,
		"name": name, "size": fmt.Sprintf("%d", len(data)), "hash": "sha256:" + hex.EncodeToString(sum[:])}
}

func (c *client) put(url string, body []byte, header map[string]string) int {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.s.Client().Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func id(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func listXML(ids ...string) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?><BlockList>")
	for _, i := range ids {
		b.WriteString("<Latest>" + i + "</Latest>")
	}
	b.WriteString("</BlockList>")
	return []byte(b.String())
}

var zipType = map[string]string{"x-ms-blob-content-type": "application/zip"}

func newClient(t *testing.T) (*client, *recorder) {
	rec := &recorder{TB: t}
	return &client{t: t, s: New(rec), run: runID, job: jobID}, rec
}

// upload runs the whole protocol correctly for name and data.
func (c *client) upload(name string, data []byte) (int, map[string]any) {
	c.t.Helper()
	u := c.create(name)
	c.put(u+"&comp=block&blockid="+id("b-0"), data[:len(data)/2], nil)
	c.put(u+"&comp=block&blockid="+id("b-1"), data[len(data)/2:], nil)
	c.put(u+"&comp=blocklist", listXML(id("b-0"), id("b-1")), zipType)
	return c.twirp("FinalizeArtifact", c.s.Token(), c.finalizeBody(name, data))
}

func TestServerHappyPath(t *testing.T) {
	c, rec := newClient(t)
	var answers []map[string]any
	for _, name := range []string{"one", "two", "three", "four"} {
		status, out := c.upload(name, []byte("data of "+name))
		if status != http.StatusOK {
			t.Fatalf("FinalizeArtifact %s: status %d %v", name, status, out)
		}
		answers = append(answers, out)
	}
	if errs := rec.errors(); len(errs) > 0 {
		t.Fatalf("a correct client was reported: %q", errs)
	}
	// The four id styles: snake string, camel string, snake number, camel number.
	wantTypes := []string{"artifact_id string", "artifactId string", "artifact_id float64", "artifactId float64"}
	for i, a := range answers {
		for k, v := range a {
			if k != "ok" && k+" "+fmt.Sprintf("%T", v) != wantTypes[i] {
				t.Errorf("finalize answer %d has %s %T, want %s", i, k, v, wantTypes[i])
			}
		}
	}
	arts := c.s.Artifacts()
	if len(arts) != 4 || string(arts[1].Data) != "data of two" || len(arts[1].Blocks) != 2 || arts[1].ContentType != "application/zip" {
		t.Errorf("Artifacts() = %+v", arts)
	}
	if c.s.Count("") != 4*5 || c.s.Count("comp=block") != 8 || c.s.Count("Artifact") != 8 {
		t.Errorf("counts: all %d, comp=block %d, twirp %d", c.s.Count(""), c.s.Count("comp=block"), c.s.Count("Artifact"))
	}
}

func TestServerDuplicateName(t *testing.T) {
	c, rec := newClient(t)
	c.upload("same", []byte("x"))
	status, out := c.twirp("CreateArtifact", c.s.Token(), c.createBody("same"))
	if status != http.StatusConflict || out["code"] != "already_exists" {
		t.Errorf("second CreateArtifact: %d %v, want 409 already_exists", status, out)
	}
	if errs := rec.errors(); len(errs) > 0 {
		t.Errorf("a duplicate name is the service's error, not the test's: %q", errs)
	}
}

// TestServerReportsViolations: each request a real service would refuse,
// or that breaks the protocol, fails the test.
func TestServerReportsViolations(t *testing.T) {
	data := []byte("zip bytes")
	tests := []struct {
		name string
		do   func(c *client)
		want string
	}{
		{"no bearer token", func(c *client) { c.twirp("CreateArtifact", "", c.createBody("a")) }, "Authorization header"},
		{"camelCase field", func(c *client) {
			b := c.createBody("a")
			b["mimeType"] = b["mime_type"]
			c.twirp("CreateArtifact", c.s.Token(), b)
		}, `unknown field "mimeType"`},
		{"wrong backend ids", func(c *client) { c.run = "other"; c.twirp("CreateArtifact", c.s.Token(), c.createBody("a")) }, "backend ids"},
		{"version 4", func(c *client) { b := c.createBody("a"); b["version"] = 4; c.twirp("CreateArtifact", c.s.Token(), b) }, "version 4, want 7"},
		{"no mime type", func(c *client) {
			b := c.createBody("a")
			delete(b, "mime_type")
			c.twirp("CreateArtifact", c.s.Token(), b)
		}, "mime_type"},
		{"invalid name", func(c *client) { c.twirp("CreateArtifact", c.s.Token(), c.createBody("a:b")) }, "invalid character"},
		{"auth header on blob", func(c *client) {
			c.put(c.create("a")+"&comp=block&blockid="+id("b"), data, map[string]string{"Authorization": "Bearer x"})
		}, "no Authorization header"},
		{"sig dropped", func(c *client) {
			u := c.create("a")
			c.put(u[:strings.Index(u, "?")]+"?comp=block&blockid="+id("b"), data, nil)
		}, "sig parameter"},
		{"put blob", func(c *client) { c.put(c.create("a"), data, map[string]string{"x-ms-blob-type": "BlockBlob"}) }, "not Put Blob"},
		{"block id not base64", func(c *client) { c.put(c.create("a")+"&comp=block&blockid=%21%21", data, nil) }, "not base64"},
		{"block ids of different lengths", func(c *client) {
			u := c.create("a")
			c.put(u+"&comp=block&blockid="+id("b-1"), data, nil)
			c.put(u+"&comp=block&blockid="+id("b-1000"), data, nil)
		}, "same length"},
		{"block list out of order", func(c *client) {
			u := c.create("a")
			c.put(u+"&comp=block&blockid="+id("b-1"), data, nil)
			c.put(u+"&comp=block&blockid="+id("b-2"), data, nil)
			c.put(u+"&comp=blocklist", listXML(id("b-2"), id("b-1")), zipType)
		}, "in order"},
		{"block list missing a block", func(c *client) {
			u := c.create("a")
			c.put(u+"&comp=block&blockid="+id("b-1"), data, nil)
			c.put(u+"&comp=block&blockid="+id("b-2"), data, nil)
			c.put(u+"&comp=blocklist", listXML(id("b-1")), zipType)
		}, "in order"},
		{"no blob content type", func(c *client) {
			u := c.create("a")
			c.put(u+"&comp=block&blockid="+id("b"), data, nil)
			c.put(u+"&comp=blocklist", listXML(id("b")), nil)
		}, "x-ms-blob-content-type"},
		{"finalize before block list", func(c *client) {
			c.create("a")
			c.twirp("FinalizeArtifact", c.s.Token(), c.finalizeBody("a", nil))
		}, "no Put Block List"},
		{"size as number", func(c *client) {
			c.upload("a", data) // finalizes correctly; then a second name with a numeric size
			u := c.create("b")
			c.put(u+"&comp=block&blockid="+id("b"), data, nil)
			c.put(u+"&comp=blocklist", listXML(id("b")), zipType)
			body := c.finalizeBody("b", data)
			body["size"] = len(data)
			c.twirp("FinalizeArtifact", c.s.Token(), body)
		}, "not a JSON string"},
		{"wrong hash", func(c *client) {
			u := c.create("a")
			c.put(u+"&comp=block&blockid="+id("b"), data, nil)
			c.put(u+"&comp=blocklist", listXML(id("b")), zipType)
			c.twirp("FinalizeArtifact", c.s.Token(), c.finalizeBody("a", []byte("other bytes")))
		}, "hash"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := newClient(t)
			tc.do(c)
			errs := rec.errors()
			if !strings.Contains(strings.Join(errs, "\n"), tc.want) {
				t.Errorf("reported %q, want a report containing %q", errs, tc.want)
			}
		})
	}
}

func TestServerFail(t *testing.T) {
	c, rec := newClient(t)
	c.s.Fail("CreateArtifact", 1, http.StatusTooManyRequests, 7*time.Second)
	c.s.FailTwirp("CreateArtifact", 1, http.StatusForbidden, "resource_exhausted", "insufficient usage")

	b, _ := json.Marshal(c.createBody("a"))
	req, _ := http.NewRequest(http.MethodPost, c.s.URL+twirpPrefix+"CreateArtifact", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+c.s.Token())
	resp, err := c.s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" {
		t.Errorf("first call: %d, Retry-After %q; want 429, 7", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if status, out := c.twirp("CreateArtifact", c.s.Token(), c.createBody("a")); status != 403 || out["msg"] != "insufficient usage" {
		t.Errorf("second call: %d %v, want 403 insufficient usage", status, out)
	}
	u := c.create("a") // failures used up: succeeds
	c.s.Fail("comp=block", 1, 0, 0)
	req, _ = http.NewRequest(http.MethodPut, u+"&comp=block&blockid="+id("b"), strings.NewReader("x"))
	if resp, err := c.s.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("status-0 failure answered %d, want a dropped connection", resp.StatusCode)
	}
	if c.s.Count("CreateArtifact") != 3 || c.s.Count("comp=block") < 1 {
		t.Errorf("counts: CreateArtifact %d, comp=block %d", c.s.Count("CreateArtifact"), c.s.Count("comp=block"))
	}
	if errs := rec.errors(); len(errs) > 0 {
		t.Errorf("injected failures reported as violations: %q", errs)
	}
}
