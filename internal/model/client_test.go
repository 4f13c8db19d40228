package model_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/model/modeltest"
)

func TestCompleteRequest(t *testing.T) {
	temp0, temp, seed := 0.0, 0.2, int64(42)
	schema := map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"pass": map[string]any{"type": "boolean"}},
		"required":             []any{"pass"},
		"additionalProperties": false,
	}
	messages := []model.Message{
		{Role: "system", Content: "You are a judge."},
		{Role: "user", Content: "Is it polite?"},
		{Role: "assistant", Content: "Let me see."},
		{Role: "user", Content: "Answer."},
	}
	wantMessages := []any{
		map[string]any{"role": "system", "content": "You are a judge."},
		map[string]any{"role": "user", "content": "Is it polite?"},
		map[string]any{"role": "assistant", "content": "Let me see."},
		map[string]any{"role": "user", "content": "Answer."},
	}
	tests := []struct {
		name     string
		edit     func(*model.Config)
		req      model.Request
		wantBody map[string]any
		wantAuth string
	}{
		{
			name:     "plain, no key",
			edit:     func(c *model.Config) { c.APIKey = "" },
			req:      model.Request{Messages: messages},
			wantBody: map[string]any{"model": "gpt-test", "messages": wantMessages},
		},
		{
			name: "temperature 0 is sent",
			edit: func(c *model.Config) { c.Temperature = &temp0 },
			req:  model.Request{Messages: messages},
			wantBody: map[string]any{
				"model": "gpt-test", "messages": wantMessages, "temperature": 0.0,
			},
			wantAuth: "Bearer " + testKey,
		},
		{
			name: "temperature, seed and schema",
			edit: func(c *model.Config) { c.Temperature, c.Seed = &temp, &seed },
			req:  model.Request{Messages: messages, SchemaName: "verdict", Schema: schema},
			wantBody: map[string]any{
				"model": "gpt-test", "messages": wantMessages, "temperature": 0.2, "seed": 42.0,
				"response_format": map[string]any{
					"type": "json_schema",
					"json_schema": map[string]any{
						"name": "verdict", "strict": true, "schema": schema,
					},
				},
			},
			wantAuth: "Bearer " + testKey,
		},
		{
			name: "schema without a name",
			req:  model.Request{Messages: messages[1:2], Schema: schema},
			wantBody: map[string]any{
				"model": "gpt-test", "messages": wantMessages[1:2],
				"response_format": map[string]any{
					"type":        "json_schema",
					"json_schema": map[string]any{"name": "reply", "strict": true, "schema": schema},
				},
			},
			wantAuth: "Bearer " + testKey,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.New(t, modeltest.Answer(`{"pass":true}`))
			c, _ := newClient(t, srv, tc.edit)
			reply, err := c.Complete(context.Background(), tc.req)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if reply.Content != `{"pass":true}` {
				t.Errorf("Content = %q, want %q", reply.Content, `{"pass":true}`)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("server got %d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != "POST" || r.Path != "/v1/chat/completions" {
				t.Errorf("request = %s %s, want POST /v1/chat/completions", r.Method, r.Path)
			}
			if got := r.Header.Get("Authorization"); got != tc.wantAuth {
				t.Errorf("Authorization = %q, want %q", got, tc.wantAuth)
			}
			if got := r.JSON(t); !reflect.DeepEqual(got, tc.wantBody) {
				t.Errorf("body =\n%v\nwant\n%v", got, tc.wantBody)
			}
		})
	}
}

// TestCompleteIgnoresEnvironment checks that OPENAI_* variables, which the
// SDK's NewClient would read, add nothing to the request.
func TestCompleteIgnoresEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: yes")
	srv := modeltest.New(t)
	c, _ := newClient(t, srv, func(c *model.Config) { c.APIKey = "" })
	if _, err := c.Complete(context.Background(), user("hi")); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	h := srv.Requests()[0].Header
	for _, name := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project", "X-Leak"} {
		if v := h.Get(name); v != "" {
			t.Errorf("header %s = %q, want none", name, v)
		}
	}
}

func TestCompleteUsage(t *testing.T) {
	srv := modeltest.New(t,
		modeltest.Answer("one"),
		modeltest.Respond(500, `{"error":{"message":"oops"}}`),
		modeltest.Answer("two"),
	)
	c, _ := newClient(t, srv, nil)
	first, err := c.Complete(context.Background(), user("a"))
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := model.Usage{Requests: 1, PromptTokens: modeltest.PromptTokens, CompletionTokens: modeltest.CompletionTokens}
	if first.Usage != want {
		t.Errorf("first Usage = %+v, want %+v", first.Usage, want)
	}
	second, err := c.Complete(context.Background(), user("b"))
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want.Requests = 2 // the 500 and its retry
	if second.Usage != want {
		t.Errorf("second Usage = %+v, want %+v", second.Usage, want)
	}
	total := model.Usage{Requests: 3, PromptTokens: 2 * modeltest.PromptTokens, CompletionTokens: 2 * modeltest.CompletionTokens}
	if got := c.Usage(); got != total {
		t.Errorf("Client.Usage() = %+v, want %+v", got, total)
	}
}

// TestCompleteUsageUnreported: a reply without usage leaves its tokens
// unknown — counted as unreported — never taken for zero.
func TestCompleteUsageUnreported(t *testing.T) {
	srv := modeltest.New(t,
		modeltest.Respond(200, `{"choices":[{"message":{"role":"assistant","content":"no usage"}}]}`),
		modeltest.Answer("with usage"),
	)
	c, _ := newClient(t, srv, nil)
	first, err := c.Complete(context.Background(), user("a"))
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if want := (model.Usage{Requests: 1, Unreported: 1}); first.Usage != want {
		t.Errorf("Usage of a reply without usage = %+v, want %+v", first.Usage, want)
	}
	if _, err := c.Complete(context.Background(), user("b")); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := model.Usage{Requests: 2, PromptTokens: modeltest.PromptTokens, CompletionTokens: modeltest.CompletionTokens, Unreported: 1}
	if got := c.Usage(); got != want {
		t.Errorf("Client.Usage() = %+v, want %+v", got, want)
	}
}

func TestUsageAdd(t *testing.T) {
	var u model.Usage
	if !u.IsZero() {
		t.Errorf("zero Usage: IsZero() = false")
	}
	u.Add(model.Usage{Requests: 2, PromptTokens: 3, CompletionTokens: 4})
	u.Add(model.Usage{CacheHits: 1})
	want := model.Usage{Requests: 2, CacheHits: 1, PromptTokens: 3, CompletionTokens: 4}
	if u != want || u.IsZero() {
		t.Errorf("Add: got %+v (IsZero %v), want %+v", u, u.IsZero(), want)
	}
}

func TestCompleteBadRequest(t *testing.T) {
	srv := modeltest.New(t)
	c, _ := newClient(t, srv, nil)
	tests := []struct {
		name    string
		req     model.Request
		wantErr string
	}{
		{"no messages", model.Request{}, "model request has no messages"},
		{"unknown role", model.Request{Messages: []model.Message{{Role: "user"}, {Role: "tool"}}},
			`model request message 2: role "tool" is not system, user or assistant`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Complete(context.Background(), tc.req)
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("Complete() error = %v, want %q", err, tc.wantErr)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("server got %d requests, want 0", n)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name, endpoint, model, wantErr string
	}{
		{"ok", "https://api.openai.com/v1", "gpt-4o-mini", ""},
		{"ok local", "http://localhost:11434/v1/", "llama3", ""},
		{"empty endpoint", "", "m", "model.endpoint is empty"},
		{"not http", "ftp://example.com/v1", "m", `model.endpoint "ftp://example.com/v1": want an http:// or https:// URL`},
		{"no scheme", "localhost:8080", "m", `model.endpoint "localhost:8080": want an http:// or https:// URL`},
		{"no host", "https:///v1", "m", `model.endpoint "https:///v1": want an http:// or https:// URL`},
		// Query values and a password are where URLs carry keys: masked.
		{"query", "https://proxy.example/v1?api-key=sk-0123", "m",
			`model.endpoint "https://proxy.example/v1?api-key=***": query parameters are not supported`},
		{"password hidden", "https://me:hunter2@proxy.example/v1?x=1", "m",
			`model.endpoint "https://me:***@proxy.example/v1?x=***": query parameters are not supported`},
		{"unparsable", "http://[::1", "m", "model.endpoint is not a valid URL: missing ']' in host"},
		{"empty name", "https://api.openai.com/v1", "  ", "model.name is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := model.New(model.Config{Endpoint: tc.endpoint, Name: tc.model})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("New(%q, %q) error = %q, want %q", tc.endpoint, tc.model, got, tc.wantErr)
			}
		})
	}
}

// TestCompleteConcurrent runs many Completes at once, with the cache on, for
// the race detector; repeated requests may or may not hit the cache.
func TestCompleteConcurrent(t *testing.T) {
	srv := modeltest.New(t)
	c, _ := newClient(t, srv, func(c *model.Config) { c.CacheDir = t.TempDir() })
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			if _, err := c.Complete(context.Background(), user(fmt.Sprint(i%4))); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("Complete: %v", err)
	}
	u := c.Usage()
	if u.Requests+u.CacheHits != n || u.Requests != len(srv.Requests()) || u.Requests < 4 {
		t.Errorf("Usage = %+v with %d requests received, want Requests+CacheHits = %d, Requests ≥ 4 and = received",
			u, len(srv.Requests()), n)
	}
}
