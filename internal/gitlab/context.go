package gitlab

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Context is what a GitLab CI job says about itself in its predefined
// variables.
type Context struct {
	// APIURL is CI_API_V4_URL, e.g. https://gitlab.com/api/v4.
	APIURL string
	// ProjectID is CI_PROJECT_ID.
	ProjectID string
	// ProjectURL is CI_PROJECT_URL, e.g. https://gitlab.com/acme/shop.
	ProjectURL string
	// ProjectDir is CI_PROJECT_DIR, where the repository is checked out:
	// artifact paths are relative to it.
	ProjectDir string
	// CommitSHA is CI_COMMIT_SHA, the commit the job runs on.
	CommitSHA string
	// MR is CI_MERGE_REQUEST_IID: 0 outside a merge request pipeline.
	MR int
	// TargetBranch is CI_MERGE_REQUEST_TARGET_BRANCH_NAME.
	TargetBranch string
	// JobName, JobURL and PipelineURL are CI_JOB_NAME, CI_JOB_URL and
	// CI_PIPELINE_URL.
	JobName, JobURL, PipelineURL string
}

// ContextFrom reads the job's context through getenv. It fails only when
// the API cannot be reached at all (no CI_API_V4_URL or CI_PROJECT_ID:
// not a GitLab CI job) or a variable is malformed; outside a merge request
// pipeline MR is 0.
func ContextFrom(getenv func(string) string) (*Context, error) {
	c := &Context{
		APIURL:       strings.TrimRight(getenv("CI_API_V4_URL"), "/"),
		ProjectID:    getenv("CI_PROJECT_ID"),
		ProjectURL:   strings.TrimRight(getenv("CI_PROJECT_URL"), "/"),
		ProjectDir:   getenv("CI_PROJECT_DIR"),
		CommitSHA:    getenv("CI_COMMIT_SHA"),
		TargetBranch: getenv("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"),
		JobName:      getenv("CI_JOB_NAME"),
		JobURL:       getenv("CI_JOB_URL"),
		PipelineURL:  getenv("CI_PIPELINE_URL"),
	}
	var missing []string
	for _, v := range [][2]string{{"CI_API_V4_URL", c.APIURL}, {"CI_PROJECT_ID", c.ProjectID}} {
		if v[1] == "" {
			missing = append(missing, v[0])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("not a GitLab CI job: %s unset", strings.Join(missing, " and "))
	}
	if s := getenv("CI_MERGE_REQUEST_IID"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return nil, errors.New("CI_MERGE_REQUEST_IID " + strconv.Quote(s) + " is not a merge request number")
		}
		c.MR = n
	}
	return c, nil
}

// BlobURL is the prefix of links to the job's files at its commit, e.g.
// https://gitlab.com/acme/shop/-/blob/<sha>/; "" when the project URL or
// commit is unknown.
func (c *Context) BlobURL() string {
	if c.ProjectURL == "" || c.CommitSHA == "" {
		return ""
	}
	return c.ProjectURL + "/-/blob/" + c.CommitSHA + "/"
}
