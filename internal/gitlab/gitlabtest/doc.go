// Package gitlabtest provides a fake GitLab REST API v4 for tests: the
// merge request notes (listed page by page, created, edited) and the job
// artifacts download Ananke calls, backed by memory.
//
// Every request is validated against GitLab's own OpenAPI description
// (testdata/gitlab.openapi.trimmed.yaml, from gitlabhq/gitlabhq's
// doc/api/openapi/openapi_v3.yaml; see testdata/README.md) with
// kin-openapi: the route, the path and query parameters and the JSON body
// schema. What the description does not say but GitLab's documentation
// does — a note's 1,000,000-character limit, an edit's required body — is
// checked by hand. A request that breaks either fails the test through
// t.Errorf, naming the operation, and is answered as GitLab would (400 or
// 404), so a client that only works against a lenient fake is caught here.
//
// Typical use:
//
//	srv := gitlabtest.New(t)
//	client, _ := gitlab.New(srv.APIURL(), "42", srv.Token(), gitlab.Options{Now: …})
//	// … run the code under test …
//	notes := srv.Notes("42", 12)
//	reqs := srv.Requests()
//
// Notes are seeded with AddNote; a branch's artifacts archive, made with
// Zip, with SetArtifacts (served directly, or through a redirect to a
// storage server on another host, which fails the test when sent the
// token).
//
// Faults: ReadOnly makes the token one with the read_api scope only (403
// insufficient_scope on every write); Revoke makes it unknown (401
// invalid_token on everything); RateLimit answers the next requests of one
// operation 429 with Retry-After; Fail answers them with any status.
package gitlabtest
