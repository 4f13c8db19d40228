package github

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Context is what Ananke needs to know about the workflow run.
type Context struct {
	Owner, Repo string
	EventName   string
	// SHA is the commit to attach the check run to: the pull request's head
	// on pull_request events (GITHUB_SHA is then a synthetic merge commit
	// whose check runs do not show on the PR), else GITHUB_SHA.
	SHA string
	// PR is the pull request number, 0 when the event has none.
	PR int
	// BaseRef is the branch a pull request would merge into ("main"), from
	// GITHUB_BASE_REF or else the payload's pull_request.base.ref; "" when
	// the event has none (push, schedule, issue_comment…).
	BaseRef string
	// Branch is the branch the run is on for an event that is not a pull
	// request's (push, schedule, workflow_dispatch…), from GITHUB_REF or
	// else the payload's ref (refs/heads/<branch>); "" for a pull request,
	// a tag, or no ref.
	Branch    string
	ServerURL string // https://github.com
	APIURL    string // https://api.github.com
	RunID     string
	// WorkflowRef is the running workflow file and ref,
	// "owner/repo/.github/workflows/ci.yml@refs/pull/12/merge"
	// (GITHUB_WORKFLOW_REF).
	WorkflowRef string
	Workspace   string
}

// RunURL is the workflow run's page.
func (c *Context) RunURL() string {
	return fmt.Sprintf("%s/%s/%s/actions/runs/%s", c.ServerURL, c.Owner, c.Repo, c.RunID)
}

// BlobURL is the prefix of links to files at the context's commit.
func (c *Context) BlobURL() string {
	return fmt.Sprintf("%s/%s/%s/blob/%s/", c.ServerURL, c.Owner, c.Repo, c.SHA)
}

// event holds the fields Ananke reads from the event payload.
type event struct {
	Number      int    `json:"number"`
	Ref         string `json:"ref"`
	PullRequest *struct {
		Number int `json:"number"`
		Head   struct {
			SHA string `json:"sha"`
		} `json:"head"`
		Base struct {
			Ref string `json:"ref"`
		} `json:"base"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int             `json:"number"`
		PullRequest json.RawMessage `json:"pull_request"`
	} `json:"issue"`
}

// ContextFrom reads the context from GITHUB_* variables and the event file
// at GITHUB_EVENT_PATH (read through readFile; nil means os.ReadFile).
func ContextFrom(getenv func(string) string, readFile func(string) ([]byte, error)) (*Context, error) {
	if readFile == nil {
		readFile = os.ReadFile
	}
	c := &Context{
		EventName:   getenv("GITHUB_EVENT_NAME"),
		SHA:         getenv("GITHUB_SHA"),
		ServerURL:   strings.TrimSuffix(orDefault(getenv("GITHUB_SERVER_URL"), "https://github.com"), "/"),
		APIURL:      strings.TrimSuffix(orDefault(getenv("GITHUB_API_URL"), "https://api.github.com"), "/"),
		RunID:       getenv("GITHUB_RUN_ID"),
		BaseRef:     getenv("GITHUB_BASE_REF"),
		WorkflowRef: getenv("GITHUB_WORKFLOW_REF"),
		Workspace:   getenv("GITHUB_WORKSPACE"),
	}
	repo := getenv("GITHUB_REPOSITORY")
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" {
		return nil, fmt.Errorf("GITHUB_REPOSITORY %q is not owner/name", repo)
	}
	c.Owner, c.Repo = owner, name
	ref := getenv("GITHUB_REF")
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		c.setBranch(ref)
		return c, nil
	}
	raw, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("read event payload: %w", err)
	}
	var ev event
	if err := json.Unmarshal(raw, &ev); err != nil {
		return nil, fmt.Errorf("read event payload %s: %w", path, err)
	}
	if ref == "" {
		ref = ev.Ref
	}
	switch {
	case ev.PullRequest != nil: // pull_request, pull_request_target, pull_request_review…
		c.PR = ev.PullRequest.Number
		if c.PR == 0 {
			c.PR = ev.Number
		}
		if ev.PullRequest.Head.SHA != "" {
			c.SHA = ev.PullRequest.Head.SHA
		}
		if c.BaseRef == "" {
			c.BaseRef = ev.PullRequest.Base.Ref
		}
	case ev.Issue != nil && len(ev.Issue.PullRequest) > 0: // issue_comment on a PR
		c.PR = ev.Issue.Number
	}
	if c.PR == 0 && strings.HasPrefix(c.EventName, "pull_request") {
		// Fall back to refs/pull/<n>/merge.
		if n, ok := strings.CutPrefix(getenv("GITHUB_REF"), "refs/pull/"); ok {
			c.PR, _ = strconv.Atoi(strings.TrimSuffix(n, "/merge"))
		}
	}
	c.setBranch(ref)
	return c, nil
}

// setBranch sets Branch from ref, outside a pull request.
func (c *Context) setBranch(ref string) {
	if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok && c.PR == 0 && c.BaseRef == "" {
		c.Branch = b
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
