// Package artifact uploads a directory as a GitHub Actions workflow artifact
// through the artifact service behind actions/upload-artifact@v4 and later
// (the "v4" protocol), using nothing but net/http, so that it works from
// inside a Docker container action.
//
// The protocol, after actions/toolkit packages/artifact (see
// docs/github-ci.md §3):
//
//  1. The run and job backend ids come from the scp claim
//     "Actions.Results:<run>:<job>" of the JWT in ACTIONS_RUNTIME_TOKEN.
//  2. CreateArtifact, a twirp call to the origin of ACTIONS_RESULTS_URL,
//     answers with a signed (SAS) Azure blob URL.
//  3. The zip goes to that URL as Put Block requests and one Put Block List.
//     A single Put Blob would also work against Azure, but nektos/act's fake
//     service keeps only block bodies, so blocks it is.
//  4. FinalizeArtifact, with the zip's size and SHA-256, returns the id.
//
// The signed URL's sig parameter is a secret: Config.OnSecret hears of it
// before any request uses it, and no error carries the URL's query string.
//
// Package artifacttest has a fake of the service for tests.
package artifact
