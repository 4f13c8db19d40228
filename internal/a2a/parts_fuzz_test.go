package a2a

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// artifactTurn records an artifact given as chunks: the first as it is,
// each later one appended, or, with snapshot set, the task snapshot that
// follows each chunk (its parts so far).
func artifactTurn(chunks [][]*a2a.Part, snapshot bool) *trace.Turn {
	s := &Session{now: time.Now, seenMsgs: map[string]bool{}, artifacts: map[string]artifactSoFar{},
		seenCalls: map[string]bool{}, results: map[string]bool{}}
	rec := trace.NewRecorder()
	rec.StartTurn(0, target.TurnUser, "", time.UnixMilli(0))
	rec.StartRun("r", time.UnixMilli(0))
	r := &run{s: s, rec: rec}
	var sofar []*a2a.Part
	for i, c := range chunks {
		sofar = append(sofar, c...)
		if snapshot {
			r.artifact("t", &a2a.Artifact{ID: "a", Parts: slices.Clone(sofar)}, false, time.UnixMilli(0), int64(i+1))
		} else {
			r.artifact("t", &a2a.Artifact{ID: "a", Parts: c}, i > 0, time.UnixMilli(0), int64(i+1))
		}
	}
	rec.EndRun(0, nil, time.UnixMilli(0))
	return rec.EndTurn(time.UnixMilli(0), nil)
}

// FuzzArtifactParts: an artifact's parts (A2A 1.0 JSON) read the same —
// text and files — streamed in chunks, cut anywhere, and from the task
// snapshots that follow each chunk.
func FuzzArtifactParts(f *testing.F) {
	for _, s := range []string{
		`[{"text":"a"},{"data":{"b":1}},{"text":"c"}]`,
		`[{"text":"Total: "},{"data":{"total":42}},{"raw":"YSxiCjEsMgo=","mediaType":"text/csv","filename":"t.csv"},{"url":"https://x/c.png"},{"raw":"eyJvayI6dHJ1ZX0=","mediaType":"application/json"}]`,
		`[{"data":null},{"data":"s"},{"text":"\n"},{"raw":"/w==","mediaType":"text/plain"}]`,
		`[{"data":{"id":"c","name":"f","args":{}},"metadata":{"adk_type":"function_call"}},{"text":"x"}]`,
		`[{"raw":"","mediaType":"text/plain"},{"text":""},{"data":[]}]`,
	} {
		f.Add(s, uint8(1), uint8(2))
	}
	f.Fuzz(func(t *testing.T, raw string, cut1, cut2 uint8) {
		var parts a2a.ContentParts
		if json.Unmarshal([]byte(raw), &parts) != nil || len(parts) == 0 || len(parts) > 64 {
			return
		}
		a, b := int(cut1)%(len(parts)+1), int(cut2)%(len(parts)+1)
		if a > b {
			a, b = b, a
		}
		chunks := [][]*a2a.Part{parts[:a], parts[a:b], parts[b:]}
		whole := artifactTurn([][]*a2a.Part{parts}, false)
		for _, snapshot := range []bool{false, true} {
			got := artifactTurn(chunks, snapshot)
			if got.Text() != whole.Text() || !slices.Equal(got.AgentFiles, whole.AgentFiles) {
				t.Fatalf("%s cut at %d, %d (snapshots %t): %q, files %+v; whole: %q, files %+v",
					raw, a, b, snapshot, got.Text(), got.AgentFiles, whole.Text(), whole.AgentFiles)
			}
		}
	})
}

// FuzzCardFlow: any card's security schemes are read without a panic,
// and a flow found has a token URL (its scheme's name may be empty: JSON
// allows it, testdata/fuzz/FuzzCardFlow).
func FuzzCardFlow(f *testing.F) {
	for _, s := range []string{
		`{"securitySchemes":{"corp":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://idp/token","scopes":{"r":""}}}}}},"securityRequirements":[{"schemes":{"corp":{"list":["r"]}}}]}`,
		`{"securitySchemes":{"a":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://a/token"}}}},"security":[{"a":["x","y"]}]}`,
		`{"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header","name":"k"}}},"securityRequirements":[{"schemes":{"k":[]}}]}`,
		`{"securitySchemes":{"a":{"type":"OAUTH2","flows":{"clientCredentials":{"tokenUrl":""}}}}}`,
		`{"securitySchemes":null,"security":[null]}`, `{"securitySchemes":[]}`, `[]`, `{"securityRequirements":[{"schemes":{"a":5}}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		flow, err := clientCredentialsFlow([]byte(raw))
		if err != nil || flow == nil {
			return
		}
		if flow.tokenURL == "" {
			t.Fatalf("%s: flow %+v", raw, flow)
		}
	})
}
