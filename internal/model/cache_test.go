package model_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/model/modeltest"
)

// cacheFiles lists the entries under dir, failing on anything else (a
// temporary file left behind, a misplaced entry).
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	entry := regexp.MustCompile(`^([0-9a-f]{2})/([0-9a-f]{64})\.json$`)
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		m := entry.FindStringSubmatch(filepath.ToSlash(rel))
		if m == nil || !strings.HasPrefix(m[2], m[1]) {
			t.Errorf("unexpected file in the cache: %s", rel)
		}
		files = append(files, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestCache(t *testing.T) {
	dir := t.TempDir()
	srv := modeltest.New(t, modeltest.Answer("first"), modeltest.Answer("second"), modeltest.Answer("third"))
	c, _ := newClient(t, srv, func(c *model.Config) { c.CacheDir = dir })
	ctx := context.Background()

	miss, err := c.Complete(ctx, user("hello"))
	if err != nil {
		t.Fatalf("first Complete: %v", err)
	}
	hit, err := c.Complete(ctx, user("hello"))
	if err != nil {
		t.Fatalf("second Complete: %v", err)
	}
	if hit.Content != miss.Content || hit.Usage != (model.Usage{CacheHits: 1}) {
		t.Errorf("second Complete = %q %+v, want %q with Usage{CacheHits: 1}", hit.Content, hit.Usage, miss.Content)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server got %d requests after a hit, want 1", n)
	}

	files := cacheFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("cache has %d entries, want 1", len(files))
	}
	b, _ := os.ReadFile(files[0])
	var entry map[string]any
	if err := json.Unmarshal(b, &entry); err != nil {
		t.Fatalf("cache entry %s: %v", b, err)
	}
	want := map[string]any{"content": "first", "prompt_tokens": float64(modeltest.PromptTokens), "completion_tokens": float64(modeltest.CompletionTokens)}
	if len(entry) != len(want) || entry["content"] != want["content"] ||
		entry["prompt_tokens"] != want["prompt_tokens"] || entry["completion_tokens"] != want["completion_tokens"] {
		t.Errorf("cache entry = %s, want %v", b, want)
	}

	other, err := c.Complete(ctx, user("something else"))
	if err != nil || other.Content != "second" || other.Usage.Requests != 1 {
		t.Errorf("different message: Complete = %q %+v, %v; want a miss answered %q", other.Content, other.Usage, err, "second")
	}

	// A corrupt entry is a miss, and the new answer replaces it.
	if err := os.WriteFile(files[0], []byte(`{"content": "fir`), 0o600); err != nil {
		t.Fatal(err)
	}
	again, err := c.Complete(ctx, user("hello"))
	if err != nil || again.Content != "third" || again.Usage.Requests != 1 {
		t.Errorf("corrupt entry: Complete = %q %+v, %v; want a miss answered %q", again.Content, again.Usage, err, "third")
	}
	if b, _ := os.ReadFile(files[0]); !strings.Contains(string(b), `"third"`) {
		t.Errorf("corrupt entry not overwritten: %s", b)
	}
	if len(cacheFiles(t, dir)) != 2 {
		t.Errorf("cache has %d entries, want 2", len(cacheFiles(t, dir)))
	}
	want2 := model.Usage{Requests: 3, CacheHits: 1, PromptTokens: 3 * modeltest.PromptTokens, CompletionTokens: 3 * modeltest.CompletionTokens}
	if got := c.Usage(); got != want2 {
		t.Errorf("Usage() = %+v, want %+v", got, want2)
	}
}

// TestCacheKey checks what the key depends on: a cache filled by one client
// answers another only when nothing that shapes the answer differs.
func TestCacheKey(t *testing.T) {
	temp, seed := 0.5, int64(7)
	tests := []struct {
		name    string
		edit    func(*model.Config)
		req     model.Request
		wantHit bool
	}{
		{name: "same", wantHit: true},
		{name: "another API key", edit: func(c *model.Config) { c.APIKey = "sk-other" }, wantHit: true},
		{name: "trailing slash on the endpoint", edit: func(c *model.Config) { c.Endpoint += "/" }, wantHit: true},
		{name: "another model", edit: func(c *model.Config) { c.Name = "gpt-other" }},
		{name: "a temperature", edit: func(c *model.Config) { c.Temperature = &temp }},
		{name: "a seed", edit: func(c *model.Config) { c.Seed = &seed }},
		{name: "another role", req: model.Request{Messages: []model.Message{{Role: "system", Content: "hello"}}}},
		{name: "a schema", req: model.Request{Messages: user("hello").Messages, Schema: schema}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			srv := modeltest.New(t, modeltest.Answer(`{"n":1}`), modeltest.Answer(`{"n":2}`))
			first, _ := newClient(t, srv, func(c *model.Config) { c.CacheDir = dir })
			if _, err := first.Complete(context.Background(), user("hello")); err != nil {
				t.Fatalf("first Complete: %v", err)
			}
			second, _ := newClient(t, srv, func(c *model.Config) {
				c.CacheDir = dir
				if tc.edit != nil {
					tc.edit(c)
				}
			})
			req := tc.req
			if req.Messages == nil {
				req = user("hello")
			}
			reply, err := second.Complete(context.Background(), req)
			if err != nil {
				t.Fatalf("second Complete: %v", err)
			}
			if hit := reply.Usage.CacheHits == 1; hit != tc.wantHit {
				t.Errorf("cache hit = %v (content %q), want %v", hit, reply.Content, tc.wantHit)
			}
		})
	}
}

func TestCacheNeverStoresTheKey(t *testing.T) {
	dir := t.TempDir()
	srv := modeltest.New(t)
	c, _ := newClient(t, srv, func(c *model.Config) { c.CacheDir = dir })
	if _, err := c.Complete(context.Background(), user("hi")); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	for _, f := range cacheFiles(t, dir) {
		if b, _ := os.ReadFile(f); strings.Contains(string(b)+f, testKey) {
			t.Errorf("%s holds the API key", f)
		}
	}
}

func TestCacheUnwritable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := modeltest.New(t)
	c, _ := newClient(t, srv, func(c *model.Config) { c.CacheDir = dir })
	reply, err := c.Complete(context.Background(), user("hi"))
	merr := asError(t, err)
	if merr.Kind != model.KindCache || reply.Content != "ok" {
		t.Errorf("Complete = %q, %s error; want %q and a %s error", reply.Content, merr.Kind, "ok", model.KindCache)
	}
	if want := "model gpt-test at " + srv.URL + ": cache: mkdir " + dir + ": "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %q, want %q…", err, want)
	}
}
