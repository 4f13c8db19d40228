package generate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/model/modeltest"
)

// TestGenerateRealClient goes through the real model client: an answer in
// prose is asked for once more with what was wrong, and the JSON that
// follows is used; prose twice is an error that names the model.
func TestGenerateRealClient(t *testing.T) {
	drafts, _ := json.Marshal(map[string]any{"tests": []Draft{{"refund.ananke.yaml", good}}})
	for _, tc := range []struct {
		name          string
		first, second string
		valid         int
		wantErr       string
	}{
		{"prose, then JSON", "Here are some tests you could write.", string(drafts), 1, ""},
		{"another shape, then JSON", `{"files":[]}`, string(drafts), 1, ""},
		{"prose twice", "Here are some tests.", "Still prose.", 0, "its answer did not fit the required JSON, twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.New(t, modeltest.Answer(tc.first), modeltest.Answer(tc.second))
			c, err := model.New(model.Config{Endpoint: srv.URL, Name: "gpt-test", HTTP: srv.Client(), Sleep: func(context.Context, time.Duration) error { return nil }})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Generate(context.Background(), c, Options{ConfigPath: config(t), Count: 1, What: "refunds"})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "gpt-test") {
					t.Fatalf("err = %v, want %q naming the model", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if len(res.Valid) != tc.valid || res.Usage.Requests != 2 || len(srv.Requests()) != 2 {
				t.Fatalf("valid %d (want %d), usage.Requests %d, requests sent %d; want 2 requests", len(res.Valid), tc.valid, res.Usage.Requests, len(srv.Requests()))
			}
		})
	}
}
