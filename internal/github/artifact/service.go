package artifact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// The request bodies are proto3 JSON with proto field names (snake_case),
// int64 as strings and wrapper types as plain values, as the toolkit sends
// them (useProtoFieldName: true).
type createArtifactRequest struct {
	WorkflowRunBackendID    string `json:"workflow_run_backend_id"`
	WorkflowJobRunBackendID string `json:"workflow_job_run_backend_id"`
	Name                    string `json:"name"`
	ExpiresAt               string `json:"expires_at,omitempty"`
	Version                 int    `json:"version"`
	MimeType                string `json:"mime_type"`
}

type finalizeArtifactRequest struct {
	WorkflowRunBackendID    string `json:"workflow_run_backend_id"`
	WorkflowJobRunBackendID string `json:"workflow_job_run_backend_id"`
	Name                    string `json:"name"`
	Size                    string `json:"size"`
	Hash                    string `json:"hash"`
}

// The responses come in either field style: the service and the toolkit
// use snake_case, nektos/act answers protojson camelCase. Both are decoded.
type createArtifactResponse struct {
	OK       bool   `json:"ok"`
	URLSnake string `json:"signed_upload_url"`
	URLCamel string `json:"signedUploadUrl"`
}

type finalizeArtifactResponse struct {
	OK      bool            `json:"ok"`
	IDSnake json.RawMessage `json:"artifact_id"`
	IDCamel json.RawMessage `json:"artifactId"`
}

// artifactVersion 7 with mime_type is what the toolkit sends since
// 2026-02-25 (version 4 before).
const (
	artifactVersion = 7
	zipMimeType     = "application/zip"
)

// createArtifact registers name and returns the signed URL to upload to.
func (c *client) createArtifact(ctx context.Context, name string) (string, error) {
	req := createArtifactRequest{
		WorkflowRunBackendID:    c.runID,
		WorkflowJobRunBackendID: c.jobID,
		Name:                    name,
		Version:                 artifactVersion,
		MimeType:                zipMimeType,
	}
	if c.retentionDays > 0 {
		// Whole seconds: protojson accepts them everywhere.
		expires := c.now().Add(time.Duration(c.retentionDays) * 24 * time.Hour)
		req.ExpiresAt = expires.UTC().Truncate(time.Second).Format(time.RFC3339)
	}
	var resp createArtifactResponse
	if err := c.twirp(ctx, "CreateArtifact", req, &resp); err != nil {
		return "", err
	}
	return resp.signedURL()
}

func (r createArtifactResponse) signedURL() (string, error) {
	if !r.OK {
		return "", errors.New("service answered ok=false")
	}
	u := r.URLSnake
	if u == "" {
		u = r.URLCamel
	}
	if u == "" {
		return "", errors.New("response has no signed upload URL")
	}
	return u, nil
}

// finalizeArtifact commits the upload and returns the artifact id.
func (c *client) finalizeArtifact(ctx context.Context, name string, size int64, hash string) (int64, error) {
	req := finalizeArtifactRequest{
		WorkflowRunBackendID:    c.runID,
		WorkflowJobRunBackendID: c.jobID,
		Name:                    name,
		Size:                    strconv.FormatInt(size, 10),
		Hash:                    hash,
	}
	var resp finalizeArtifactResponse
	if err := c.twirp(ctx, "FinalizeArtifact", req, &resp); err != nil {
		return 0, err
	}
	return resp.id()
}

// id reads artifact_id, an int64 that protojson writes as a string but
// other implementations write as a number.
func (r finalizeArtifactResponse) id() (int64, error) {
	if !r.OK {
		return 0, errors.New("service answered ok=false")
	}
	raw := r.IDSnake
	if len(raw) == 0 {
		raw = r.IDCamel
	}
	if len(raw) == 0 {
		return 0, errors.New("response has no artifact id")
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("artifact id %s is not an integer", shorten(string(raw)))
	}
	return id, nil
}
