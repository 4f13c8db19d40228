package gitlab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxNoteChars is GitLab's limit on a note's body: "The content of a note.
// Limited to 1,000,000 characters." (the Notes API, doc/api/notes.md).
const MaxNoteChars = 1_000_000

// truncatedNote ends a body cut to fit MaxNoteChars.
const truncatedNote = "\n\n… (shortened to fit GitLab's limit of 1,000,000 characters; the full report is in the job's artifacts)"

// Listing bounds: GitLab serves at most 100 items a page, and refuses
// more than a few thousand comments on one merge request, so 100 pages
// are every note there can be.
const (
	notesPerPage  = 100
	maxNotesPages = 100
)

// Note is a merge request note, as far as Ananke reads it.
type Note struct {
	ID     int64  `json:"id"`
	Body   string `json:"body"`
	System bool   `json:"system"` // GitLab's own activity ("added 1 commit")
}

// notesPath is the path of merge request mr's notes.
func (c *Client) notesPath(mr int) string {
	return c.projectPath("merge_requests/" + strconv.Itoa(mr) + "/notes")
}

// FindNote returns the id of the oldest comment on merge request mr whose
// body contains marker, or 0. Every page is read, oldest first: a busy
// merge request has hundreds of notes and the marker's may be anywhere.
// GitLab's own activity notes are left out.
func (c *Client) FindNote(ctx context.Context, mr int, marker string) (int64, error) {
	q := url.Values{"sort": {"asc"}, "order_by": {"created_at"}, "activity_filter": {"only_comments"},
		"per_page": {strconv.Itoa(notesPerPage)}}
	for page, n := 1, 0; page != 0; n++ {
		if n == maxNotesPages {
			return 0, fmt.Errorf("list notes of !%d: more than %d pages", mr, maxNotesPages)
		}
		q.Set("page", strconv.Itoa(page))
		resp, err := c.do(ctx, request{method: http.MethodGet, path: c.notesPath(mr), query: q})
		if err != nil {
			return 0, fmt.Errorf("list notes of !%d: %w", mr, err)
		}
		var notes []Note
		if err := json.Unmarshal(resp.body, &notes); err != nil {
			return 0, fmt.Errorf("list notes of !%d: page %d: %w", mr, page, err)
		}
		for _, nt := range notes {
			if !nt.System && strings.Contains(nt.Body, marker) {
				return nt.ID, nil
			}
		}
		if len(notes) == 0 {
			break // an empty page ends the list, whatever the headers say
		}
		page = nextPage(resp.header)
	}
	return 0, nil
}

// nextPage reads the number of the next page: x-next-page, else the page
// of the Link header's rel="next"; 0 on the last page.
func nextPage(h http.Header) int {
	if n, err := strconv.Atoi(strings.TrimSpace(h.Get("X-Next-Page"))); err == nil && n > 0 {
		return n
	}
	for _, l := range h.Values("Link") {
		for _, link := range strings.Split(l, ",") {
			target, params, ok := strings.Cut(link, ";")
			if !ok || !isNext(params) {
				continue
			}
			target = strings.TrimSpace(target)
			u, err := url.Parse(strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">"))
			if err != nil {
				continue
			}
			if n, err := strconv.Atoi(u.Query().Get("page")); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// isNext reports whether a link's parameters say rel="next".
func isNext(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(k, "rel") && slices.Contains(strings.Fields(strings.Trim(v, `"`)), "next") {
			return true
		}
	}
	return false
}

// CreateNote comments body on merge request mr and returns the note's id.
func (c *Client) CreateNote(ctx context.Context, mr int, body string) (int64, error) {
	resp, err := c.do(ctx, request{method: http.MethodPost, path: c.notesPath(mr), body: map[string]string{"body": body}})
	if err != nil {
		return 0, fmt.Errorf("comment on !%d: %w", mr, err)
	}
	var n Note
	if err := json.Unmarshal(resp.body, &n); err != nil || n.ID == 0 {
		return 0, fmt.Errorf("comment on !%d: the answer names no note", mr)
	}
	return n.ID, nil
}

// UpdateNote sets the body of note id on merge request mr.
func (c *Client) UpdateNote(ctx context.Context, mr int, id int64, body string) error {
	path := c.notesPath(mr) + "/" + strconv.FormatInt(id, 10)
	if _, err := c.do(ctx, request{method: http.MethodPut, path: path, body: map[string]string{"body": body}}); err != nil {
		return fmt.Errorf("edit note %d on !%d: %w", id, mr, err)
	}
	return nil
}

// UpsertNote edits the note carrying marker on merge request mr, or
// creates one. The marker must be in body: it is how the next run finds
// the note. A body over MaxNoteChars is cut, and says so. It returns the
// note's id and whether it was created.
//
// A creation that met a server error may have been made all the same, so
// before sending it again UpsertNote looks for the note once more, and
// edits it if it is there: one note, never two.
func (c *Client) UpsertNote(ctx context.Context, mr int, marker, body string) (id int64, created bool, err error) {
	if !strings.Contains(body, marker) {
		return 0, false, fmt.Errorf("note body lacks its marker %q", marker)
	}
	body = clip(body, MaxNoteChars, truncatedNote)
	for attempt := 1; ; attempt++ {
		id, err := c.FindNote(ctx, mr, marker)
		if err != nil {
			return 0, false, err
		}
		if id != 0 {
			return id, false, c.UpdateNote(ctx, mr, id, body)
		}
		id, err = c.CreateNote(ctx, mr, body)
		var e *APIError
		if err == nil || attempt == maxAttempts || !errors.As(err, &e) || !serverError(e.Status) {
			return id, err == nil, err
		}
		if err := c.sleep(ctx, serverErrorWait<<(attempt-1)); err != nil {
			return 0, false, fmt.Errorf("comment on !%d: %w (waiting to retry after %s)", mr, err, e.statusText())
		}
	}
}

// clip cuts s to at most n characters (code points, as GitLab counts
// them), ending it with note.
func clip(s string, n int, note string) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	keep := n - utf8.RuneCountInString(note)
	if keep < 0 {
		keep, note = n, ""
	}
	i := 0
	for k := 0; k < keep; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + note
}
