package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/model/modeltest"
)

// scripted answers each request with the next of its replies or errors,
// and keeps the requests it got.
type scripted struct {
	replies []string
	err     error
	got     []model.Request
}

func (s *scripted) Complete(_ context.Context, req model.Request) (model.Reply, error) {
	s.got = append(s.got, req)
	if s.err != nil {
		return model.Reply{Usage: model.Usage{Requests: 1}}, s.err
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return model.Reply{Content: r, Usage: model.Usage{Requests: 1, PromptTokens: 10, CompletionTokens: 2}}, nil
}

func TestCompleteJSON(t *testing.T) {
	accept := func(content string) error {
		if content != "good" {
			return errors.New("not good: " + content)
		}
		return nil
	}
	boom := errors.New("model m at http://x: unreachable")
	tests := []struct {
		name         string
		m            *scripted
		wantRequests int
		wantErr      string
	}{
		{"first answer fits", &scripted{replies: []string{"good"}}, 1, ""},
		{"second answer fits", &scripted{replies: []string{"bad", "good"}}, 2, ""},
		{"neither fits", &scripted{replies: []string{"bad", "worse"}}, 2, "its answer did not fit the required JSON, twice: not good: worse"},
		{"transport error is not retried here", &scripted{err: boom}, 1, boom.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := []model.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}}
			req := model.Request{Messages: first[:2:2], SchemaName: "x"}
			usage, err := model.CompleteJSON(context.Background(), tt.m, req, accept, "Answer again.")
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if usage.Requests != tt.wantRequests || len(tt.m.got) != tt.wantRequests {
				t.Fatalf("usage.Requests = %d, requests sent = %d, want %d", usage.Requests, len(tt.m.got), tt.wantRequests)
			}
			if tt.wantRequests == 2 {
				retry := tt.m.got[1].Messages
				if len(retry) != 4 || retry[2].Role != "assistant" || retry[2].Content != "bad" ||
					!strings.Contains(retry[3].Content, "(not good: bad)") || !strings.HasSuffix(retry[3].Content, "Answer again.") {
					t.Fatalf("the retry does not carry the answer and what was wrong: %+v", retry)
				}
				if len(tt.m.got[0].Messages) != 2 {
					t.Fatalf("the first request's messages were changed: %+v", tt.m.got[0].Messages)
				}
			}
		})
	}
}

// TestCompleteJSONRealClient goes through *model.Client and a model
// endpoint: an answer that is not JSON at all is refused inside Complete,
// and must be asked for once more like JSON of the wrong shape, with the
// answer and what was wrong; twice, the error names the model.
func TestCompleteJSONRealClient(t *testing.T) {
	schema := map[string]any{"type": "object"}
	accept := func(content string) error {
		if content != `{"ok":true}` {
			return errors.New("want ok: " + content)
		}
		return nil
	}
	const prose = "I think the agent was polite."
	tests := []struct {
		name          string
		first, second string
		wantErr       string // after "model gpt-test at URL: "
	}{
		{"prose, then JSON", prose, `{"ok":true}`, ""},
		{"empty, then JSON", "", `{"ok":true}`, ""},
		{"wrong JSON, then JSON", `{"ok":false}`, `{"ok":true}`, ""},
		{"prose twice", prose, "Still prose.",
			"its answer did not fit the required JSON, twice: the reply is not JSON: invalid character 'S' looking for beginning of value"},
		{"prose, then wrong JSON", prose, `{"ok":false}`,
			`its answer did not fit the required JSON, twice: want ok: {"ok":false}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.New(t, modeltest.Answer(tc.first), modeltest.Answer(tc.second))
			c, _ := newClient(t, srv, nil)
			req := model.Request{Messages: []model.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}}, SchemaName: "x", Schema: schema}
			usage, err := model.CompleteJSON(context.Background(), c, req, accept, "Answer again.")
			if tc.wantErr == "" && err != nil {
				t.Fatalf("CompleteJSON: %v", err)
			}
			if tc.wantErr != "" {
				merr := asError(t, err)
				if want := "model gpt-test at " + srv.URL + ": " + tc.wantErr; err.Error() != want || merr.Kind != model.KindMalformed {
					t.Fatalf("err = %v (%s)\nwant %s", err, merr.Kind, want)
				}
			}
			reqs := srv.Requests()
			if usage.Requests != 2 || len(reqs) != 2 {
				t.Fatalf("usage.Requests = %d, requests sent = %d, want 2", usage.Requests, len(reqs))
			}
			var second struct {
				Messages []model.Message `json:"messages"`
			}
			if err := json.Unmarshal(reqs[1].Body, &second); err != nil {
				t.Fatal(err)
			}
			m := second.Messages
			if len(m) != 4 || m[2] != (model.Message{Role: "assistant", Content: tc.first}) || m[3].Role != "user" ||
				!strings.HasPrefix(m[3].Content, "That answer does not fit the required JSON (") || !strings.HasSuffix(m[3].Content, "Answer again.") {
				t.Fatalf("the second request does not carry the first answer and what was wrong with it: %+v", m)
			}
		})
	}
}
