package gitlabtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits GitLab documents but its OpenAPI description does not express.
const (
	// maxNoteChars: "The content of a note. Limited to 1,000,000
	// characters." (doc/api/notes.md)
	maxNoteChars = 1_000_000
	// defaultPerPage and maxPerPage: list endpoints serve 20 items a page
	// unless asked, and at most 100 (doc/api/rest/index.md, Pagination).
	defaultPerPage = 20
	maxPerPage     = 100
)

// epoch is the fake's clock origin: a note's times are epoch plus one
// minute per note id, the same on every run.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// AddNote puts a note on merge request mr of project, as if someone (or,
// with system, GitLab itself) had written it, and returns its id.
func (s *Server) AddNote(project string, mr int, body string, system bool) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addNote(mrKey{project, strconv.Itoa(mr)}, body, system).ID
}

func (s *Server) addNote(k mrKey, body string, system bool) *Note {
	n := &Note{ID: s.nextNote, Body: body, System: system}
	s.nextNote++
	s.notes[k] = append(s.notes[k], n)
	return n
}

// Notes returns the notes of merge request mr of project, oldest first.
func (s *Server) Notes(project string, mr int) []Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Note
	for _, n := range s.notes[mrKey{project, strconv.Itoa(mr)}] {
		out = append(out, *n)
	}
	return out
}

// OmitNextPageHeader makes note lists leave out x-next-page, as a proxy
// stripping GitLab's own headers would: the next page is then only in the
// Link header.
func (s *Server) OmitNextPageHeader() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noNextHeader = true
}

// noteJSON is GitLab's note entity, as much of it as a client may read.
type noteJSON struct {
	ID           int64   `json:"id"`
	Type         *string `json:"type"`
	Body         string  `json:"body"`
	Author       author  `json:"author"`
	CreatedAt    string  `json:"created_at"`
	UpdatedAt    string  `json:"updated_at"`
	System       bool    `json:"system"`
	NoteableID   int     `json:"noteable_id"`
	NoteableType string  `json:"noteable_type"`
	ProjectID    int     `json:"project_id"`
	NoteableIID  int     `json:"noteable_iid"`
	Resolvable   bool    `json:"resolvable"`
	Confidential bool    `json:"confidential"`
	Internal     bool    `json:"internal"`
}

type author struct {
	ID       int    `json:"id"`
	Username string `json:"username"`
	Name     string `json:"name"`
	State    string `json:"state"`
}

func (c *call) key() mrKey { return mrKey{c.params["id"], c.params["noteable_id"]} }

func (s *Server) entity(c *call, n *Note) noteJSON {
	project, _ := strconv.Atoi(c.params["id"])
	iid, _ := strconv.Atoi(c.params["noteable_id"])
	at := epoch.Add(time.Duration(n.ID) * time.Minute)
	return noteJSON{ID: n.ID, Body: n.Body, Author: author{ID: 7, Username: "project_42_bot", Name: "ananke", State: "active"},
		CreatedAt: at.Format(time.RFC3339), UpdatedAt: at.Add(time.Duration(n.Edits) * time.Second).Format(time.RFC3339),
		System: n.System, NoteableID: 1000 + iid, NoteableType: "MergeRequest", ProjectID: project, NoteableIID: iid}
}

func (s *Server) listNotes(c *call) reply {
	q := c.r.URL.Query()
	s.mu.Lock()
	notes := slices.Clone(s.notes[c.key()])
	noNext := s.noNextHeader
	s.mu.Unlock()
	if q.Get("activity_filter") == "only_comments" {
		notes = slices.DeleteFunc(notes, func(n *Note) bool { return n.System })
	} else if q.Get("activity_filter") == "only_activity" {
		notes = slices.DeleteFunc(notes, func(n *Note) bool { return !n.System })
	}
	// Default order: newest first (sort desc, order_by created_at).
	if q.Get("sort") != "asc" {
		slices.Reverse(notes)
	}
	perPage := min(atoiOr(q.Get("per_page"), defaultPerPage), maxPerPage)
	if perPage < 1 {
		perPage = defaultPerPage
	}
	page := max(atoiOr(q.Get("page"), 1), 1)
	last := max((len(notes)+perPage-1)/perPage, 1)
	start := min((page-1)*perPage, len(notes))
	end := min(start+perPage, len(notes))
	out := []noteJSON{}
	for _, n := range notes[start:end] {
		out = append(out, s.entity(c, n))
	}
	h := http.Header{}
	h.Set("X-Page", strconv.Itoa(page))
	h.Set("X-Per-Page", strconv.Itoa(perPage))
	h.Set("X-Total", strconv.Itoa(len(notes)))
	h.Set("X-Total-Pages", strconv.Itoa(last))
	h.Set("X-Prev-Page", "")
	h.Set("X-Next-Page", "")
	if page > 1 {
		h.Set("X-Prev-Page", strconv.Itoa(page-1))
	}
	link := func(p int, rel string) string {
		lq := c.r.URL.Query()
		lq.Set("page", strconv.Itoa(p))
		lq.Set("per_page", strconv.Itoa(perPage))
		return fmt.Sprintf("<%s%s?%s>; rel=\"%s\"", s.URL, c.r.URL.EscapedPath(), lq.Encode(), rel)
	}
	var links []string
	if page > 1 {
		links = append(links, link(page-1, "prev"))
	}
	if page < last {
		h.Set("X-Next-Page", strconv.Itoa(page+1))
		links = append(links, link(page+1, "next"))
	}
	links = append(links, link(1, "first"), link(last, "last"))
	h.Set("Link", strings.Join(links, ", "))
	if noNext {
		h.Del("X-Next-Page")
	}
	return reply{status: http.StatusOK, header: h, body: out}
}

type noteRequest struct {
	Body *string `json:"body"`
}

// noteProblem is what GitLab says of a body it refuses, beyond the schema:
// "" when it takes it.
func noteProblem(body *string) string {
	switch {
	case body == nil || strings.TrimSpace(*body) == "":
		return `{"note":["can't be blank"]}`
	case utf8.RuneCountInString(*body) > maxNoteChars:
		return fmt.Sprintf(`{"note":["is too long (maximum is %d characters)"]}`, maxNoteChars)
	}
	return ""
}

// refused fails the test for a body GitLab would refuse, and answers as
// GitLab would: 400 with the field's errors.
func (s *Server) refused(c *call, problem string) reply {
	s.t.Errorf("gitlabtest: %s (%s %s): GitLab refuses the body: %s", c.op, c.r.Method, c.r.URL.EscapedPath(), problem)
	return reply{status: http.StatusBadRequest, body: map[string]json.RawMessage{"message": json.RawMessage(problem)}}
}

func (s *Server) createNote(c *call) reply {
	var req noteRequest
	json.Unmarshal(c.body, &req) // the schema checked it
	if p := noteProblem(req.Body); p != "" {
		return s.refused(c, p)
	}
	s.mu.Lock()
	n := s.addNote(c.key(), *req.Body, false)
	s.mu.Unlock()
	return reply{status: http.StatusCreated, body: s.entity(c, n)}
}

func (s *Server) updateNote(c *call) reply {
	var req noteRequest
	json.Unmarshal(c.body, &req)
	// The description makes body optional; GitLab's documentation and API
	// require it ("body: yes").
	if p := noteProblem(req.Body); p != "" {
		return s.refused(c, p)
	}
	id, _ := strconv.ParseInt(c.params["note_id"], 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.notes[c.key()] {
		if n.ID == id && !n.System {
			n.Body = *req.Body
			n.Edits++
			return reply{status: http.StatusOK, body: s.entity(c, n)}
		}
	}
	return message(http.StatusNotFound, "404 Not found")
}

func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def // the schema checked the type
	}
	return n
}
