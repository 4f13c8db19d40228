package githubtest

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// specJSON is GitHub's REST description trimmed to the operations Ananke
// calls (testdata/README.md says how it was made). It is embedded so that
// tests in other packages, which run in their own directory, find it.
//
//go:embed testdata/api.github.com.trimmed.json
var specJSON []byte

// spec is the loaded description, shared by every Server: loading takes a few
// milliseconds, and kin-openapi only reads the document while validating.
type spec struct {
	doc    *openapi3.T
	router routers.Router
	// ops maps an operationId to its operation, for RateLimit's checks and
	// for documentation_url in error bodies.
	ops map[string]*openapi3.Operation
}

var (
	specOnce     sync.Once
	loadedSpec   *spec
	specErr      error
	specLoadTime time.Duration
)

// loadSpec parses the embedded description once per test binary.
func loadSpec() (*spec, error) {
	specOnce.Do(func() {
		start := time.Now()
		loadedSpec, specErr = parseSpec(specJSON)
		specLoadTime = time.Since(start)
	})
	return loadedSpec, specErr
}

func parseSpec(data []byte) (*spec, error) {
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load GitHub OpenAPI description: %w", err)
	}
	// The description's only server is https://api.github.com, and gorillamux
	// matches the host: without servers every route matches on the path alone,
	// whatever port httptest picked.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route GitHub OpenAPI description: %w", err)
	}
	ops := make(map[string]*openapi3.Operation)
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			ops[op.OperationID] = op
		}
	}
	return &spec{doc: doc, router: router, ops: ops}, nil
}

// validationOptions keep the request as sent (no defaults filled in) and the
// error messages short (no schema dumps of several kilobytes).
var validationOptions = &openapi3filter.Options{
	MultiError:          true,
	SkipSettingDefaults: true,
	AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
	SchemaValidationOptions: []openapi3.SchemaValidationOption{
		openapi3.DisableSchemaErrorDetails(),
	},
}

// match finds the operation for r. It returns routers.ErrPathNotFound or
// routers.ErrMethodNotAllowed for requests outside the description.
func (sp *spec) match(r *http.Request) (*routers.Route, map[string]string, error) {
	return sp.router.FindRoute(r)
}

// validate checks r's parameters and body against route. body is r's body,
// already read; r.Body is replaced so that kin-openapi can read it again.
func (sp *spec) validate(ctx context.Context, r *http.Request, route *routers.Route, params map[string]string, body []byte) error {
	r.Body = io.NopCloser(bytes.NewReader(body))
	return openapi3filter.ValidateRequest(ctx, &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: params,
		Route:      route,
		Options:    validationOptions,
	})
}

// docURL is the operation's documentation link, as GitHub puts it in error
// bodies.
func (sp *spec) docURL(operationID string) string {
	if op := sp.ops[operationID]; op != nil && op.ExternalDocs != nil {
		return op.ExternalDocs.URL
	}
	return "https://docs.github.com/rest"
}
