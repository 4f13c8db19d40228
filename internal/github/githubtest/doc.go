// Package githubtest provides a fake GitHub REST API for tests: the check-run,
// issue-comment, workflow-run and artifact endpoints Ananke calls, backed by
// memory.
//
// Every request is validated against GitHub's own OpenAPI description
// (testdata/api.github.com.trimmed.json, from @octokit/openapi; see
// testdata/README.md) with kin-openapi: the route, the path and query
// parameters and the JSON body schema. Limits the schema does not express
// (annotation columns, titles, comment length, …) are checked by hand. A
// request that breaks any of them fails the test through t.Errorf, naming the
// operation, and is answered the way GitHub would answer it (404 or 422), so a
// reporter that only works against a lenient fake is caught here rather than
// in a user's workflow.
//
// Typical use:
//
//	srv := githubtest.New(t)
//	client := srv.Client()
//	// … run the code under test with client …
//	runs := srv.CheckRuns()
//	comments := srv.Comments(7)
//	reqs := srv.Requests()
//
// Workflow runs and artifacts are declared with AddWorkflowRun and
// AddArtifact. actions/download-artifact redirects to a signed storage URL
// on the same server, outside the description (BlobRequests records its
// requests); storage fails the test when it is sent an Authorization
// header, as the signature is the only credential it needs.
//
// Faults: ReadOnly answers every write 403 like a fork PR's GITHUB_TOKEN;
// RateLimit and ExhaustRateLimit answer the next requests of one operation
// with GitHub's rate-limit responses; Fail answers them with any error
// status (a 5xx, a 403 for a missing permission, a 410).
package githubtest
