package gitlabtest

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// specYAML is GitLab's REST description trimmed to the operations Ananke
// calls (testdata/README.md says how it was made). It is embedded so that
// tests in other packages, which run in their own directory, find it.
//
//go:embed testdata/gitlab.openapi.trimmed.yaml
var specYAML []byte

// The operations of the trimmed description.
const (
	OpListNotes         = "getApiV4ProjectsIdMergeRequestsNoteableIdNotes"
	OpCreateNote        = "postApiV4ProjectsIdMergeRequestsNoteableIdNotes"
	OpUpdateNote        = "putApiV4ProjectsIdMergeRequestsNoteableIdNotesNoteId"
	OpDownloadArtifacts = "getApiV4ProjectsIdJobsArtifactsRefNameDownload"
)

// spec is the loaded description, shared by every Server.
type spec struct {
	doc    *openapi3.T
	router routers.Router
}

var (
	specOnce   sync.Once
	loadedSpec *spec
	specErr    error
)

func loadSpec() (*spec, error) {
	specOnce.Do(func() { loadedSpec, specErr = parseSpec(specYAML) })
	return loadedSpec, specErr
}

func parseSpec(data []byte) (*spec, error) {
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load GitLab OpenAPI description: %w", err)
	}
	// The description's server is https://gitlab.com/api and gorillamux
	// matches the host: without servers every route matches on the path
	// alone (/api/v4/…), whatever port httptest picked.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route GitLab OpenAPI description: %w", err)
	}
	return &spec{doc: doc, router: router}, nil
}

// validationOptions keep the request as sent (no defaults filled in), the
// messages short, and leave the token to the fake.
var validationOptions = &openapi3filter.Options{
	MultiError:          true,
	SkipSettingDefaults: true,
	AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
	SchemaValidationOptions: []openapi3.SchemaValidationOption{
		openapi3.DisableSchemaErrorDetails(),
	},
}

// validate checks r's parameters and body against route; body is r's body,
// already read.
func (sp *spec) validate(ctx context.Context, r *http.Request, route *routers.Route, params map[string]string, body []byte) error {
	r.Body = io.NopCloser(bytes.NewReader(body))
	return openapi3filter.ValidateRequest(ctx, &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route, Options: validationOptions,
	})
}
