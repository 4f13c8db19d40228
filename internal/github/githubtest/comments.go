package githubtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Issue-comment limits.
const (
	// maxCommentLength: GitHub rejects longer bodies with 422
	// {"resource":"IssueComment",…,"message":"Body is too long (maximum is
	// 65536 characters)"} (danger/danger#424); the schema has no maxLength.
	maxCommentLength  = 65536
	commentTooLongMsg = "Body is too long (maximum is 65536 characters)"

	// actionsBot is who writes comments with a GITHUB_TOKEN.
	actionsBot = "github-actions[bot]"
)

// Comment is a stored issue comment.
type Comment struct {
	ID    int64
	Issue int
	Body  string
	User  string
}

type comment struct {
	Comment
	created, updated time.Time
}

// Comments returns the comments on issue (or pull request) number issue, in
// ascending id order.
func (s *Server) Comments(issue int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.Issue == issue {
			out = append(out, c.Comment)
		}
	}
	return out
}

// AddComment seeds a comment (e.g. other bots' comments, or an earlier Ananke comment).
// It returns the new comment's id; ids ascend across all issues.
func (s *Server) AddComment(issue int, user, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addComment(issue, user, body)
}

// addComment stores a comment. Callers hold s.mu.
func (s *Server) addComment(issue int, user, body string) int64 {
	now := s.tick()
	c := &comment{
		Comment: Comment{ID: s.nextCommID, Issue: issue, Body: body, User: user},
		created: now, updated: now,
	}
	s.nextCommID++
	s.comments = append(s.comments, c)
	return c.ID
}

type commentRequest struct {
	Body string `json:"body"`
}

func (s *Server) listComments(c *call) reply {
	issue, err := strconv.Atoi(c.params["issue_number"])
	if err != nil {
		return notFound()
	}
	var since time.Time
	if v := c.r.URL.Query().Get("since"); v != "" {
		since, _ = time.Parse(time.RFC3339, v) // the schema checked the format
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var matched []*comment
	for _, cm := range s.comments {
		if cm.Issue == issue && !cm.updated.Before(since) {
			matched = append(matched, cm)
		}
	}
	start, end, link := paginate(c.r, len(matched))
	out := make([]commentJSON, 0, end-start)
	for _, cm := range matched[start:end] {
		out = append(out, cm.json(c))
	}
	return reply{status: http.StatusOK, header: link, body: out}
}

func (s *Server) createComment(c *call) reply {
	issue, err := strconv.Atoi(c.params["issue_number"])
	if err != nil {
		return notFound()
	}
	var req commentRequest
	if err := json.Unmarshal(c.body, &req); err != nil {
		return s.badJSON(c, err)
	}
	if rep, bad := s.commentProblems(c, req.Body); bad {
		return rep
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.addComment(issue, actionsBot, req.Body)
	return reply{status: http.StatusCreated, body: s.comments[len(s.comments)-1].json(c), header: http.Header{
		"Location": {baseURL(c.r) + "/repos/" + c.repo() + "/issues/comments/" + strconv.FormatInt(id, 10)},
	}}
}

func (s *Server) updateComment(c *call) reply {
	var req commentRequest
	if err := json.Unmarshal(c.body, &req); err != nil {
		return s.badJSON(c, err)
	}
	if rep, bad := s.commentProblems(c, req.Body); bad {
		return rep
	}
	id, err := strconv.ParseInt(c.params["comment_id"], 10, 64)
	if err != nil {
		return notFound()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cm := range s.comments {
		if cm.ID == id {
			cm.Body = req.Body
			cm.updated = s.tick()
			return reply{status: http.StatusOK, body: cm.json(c)}
		}
	}
	return notFound()
}

// commentProblems checks a comment body against GitHub's limits; a broken
// limit fails the test and gets GitHub's 422.
func (s *Server) commentProblems(c *call, body string) (reply, bool) {
	p, msg := commentProblem(body)
	if msg == "" {
		return reply{}, false
	}
	s.t.Errorf("githubtest: %s (%s %s): request breaks GitHub's limits: %s: %s",
		c.op, c.r.Method, c.r.URL.Path, p.field, p.message)
	return reply{status: http.StatusUnprocessableEntity, body: apiError{
		Message:          "Validation Failed",
		Errors:           []apiFieldError{{Resource: "IssueComment", Code: "unprocessable", Field: "data", Message: msg}},
		DocumentationURL: s.spec.docURL(c.op),
		Status:           "422",
	}}, true
}

// commentProblem returns what is wrong with a comment body for the test
// report, and GitHub's message for it; msg is "" when the body is fine.
func commentProblem(body string) (p problem, msg string) {
	switch n := utf8.RuneCountInString(body); {
	case n > maxCommentLength:
		return problem{"body", fmt.Sprintf("is %d characters, maximum is %d", n, maxCommentLength)}, commentTooLongMsg
	case strings.TrimSpace(body) == "":
		return problem{"body", "is blank"}, "Body cannot be blank"
	}
	return problem{}, ""
}

// commentJSON is GitHub's issue-comment object, with the fields go-github's
// IssueComment decodes.
type commentJSON struct {
	ID                int64    `json:"id"`
	NodeID            string   `json:"node_id"`
	URL               string   `json:"url"`
	HTMLURL           string   `json:"html_url"`
	IssueURL          string   `json:"issue_url"`
	Body              string   `json:"body"`
	User              userJSON `json:"user"`
	CreatedAt         string   `json:"created_at"`
	UpdatedAt         string   `json:"updated_at"`
	AuthorAssociation string   `json:"author_association"`
}

type userJSON struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

func (cm *comment) json(c *call) commentJSON {
	id := strconv.FormatInt(cm.ID, 10)
	api := baseURL(c.r) + "/repos/" + c.repo()
	user := userJSON{Login: cm.User, ID: userID(cm.User), Type: "User"}
	if strings.HasSuffix(cm.User, "[bot]") {
		user.Type = "Bot"
	}
	return commentJSON{
		ID:                cm.ID,
		NodeID:            fmt.Sprintf("IC_githubtest%d", cm.ID),
		URL:               api + "/issues/comments/" + id,
		HTMLURL:           fmt.Sprintf("https://github.com/%s/pull/%d#issuecomment-%s", c.repo(), cm.Issue, id),
		IssueURL:          fmt.Sprintf("%s/issues/%d", api, cm.Issue),
		Body:              cm.Body,
		User:              user,
		CreatedAt:         cm.created.Format(time.RFC3339),
		UpdatedAt:         cm.updated.Format(time.RFC3339),
		AuthorAssociation: "NONE",
	}
}

// userID is a stable id for a login; github-actions[bot] gets its real one.
func userID(login string) int64 {
	if login == actionsBot {
		return 41898282
	}
	h := fnv.New32a()
	h.Write([]byte(login))
	return int64(h.Sum32())
}
