package model_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ananke/action/internal/model"
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
