package scaffold

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/ananke/action/internal/oaiwire"
)

// maxProbeBody bounds what a probe reads of a response.
const maxProbeBody = 1 << 20

// StatusError is an HTTP error status a probe of an OpenAI-compatible API
// or a JSON API got, with what the body said (an error object's message,
// or an excerpt).
type StatusError struct {
	Method, URL string
	Status      int
	Body        string
}

func (e *StatusError) Error() string {
	body := ": " + e.Body
	if e.Body == "" {
		body = " with an empty body"
	}
	return fmt.Sprintf("%s %s answered HTTP %d%s", e.Method, e.URL, e.Status, body)
}

// exchange sends a JSON request (body nil: none) and decodes the JSON
// answer into out; a status other than 2xx is a *StatusError, and an
// answer that is not JSON an error quoting it.
func exchange(ctx context.Context, hc *http.Client, method, url string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode the request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxProbeBody))
	if err != nil {
		return fmt.Errorf("%s %s: read the answer: %w", method, url, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &StatusError{Method: method, URL: url, Status: resp.StatusCode, Body: errorMessage(raw)}
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err := json.Unmarshal(raw, out); err != nil {
		if mt == "" {
			mt = "no content type"
		}
		return fmt.Errorf("%s %s answered with %s, not JSON: %q", method, url, mt, excerpt(string(raw), maxReplyQuote))
	}
	return nil
}

// errorMessage is the server's explanation in an error body, as the
// openai target reads it (oaiwire.ErrorMessage), quoted short.
func errorMessage(raw []byte) string { return excerpt(oaiwire.ErrorMessage(raw), maxReplyQuote) }

// HTTPShape is what init found in a JSON API's answer: the JSON paths of
// its reply text and of a conversation id ("" when none was found).
type HTTPShape struct {
	Text, ConversationID string
}

// DefaultTextPath is response.text when the probe found no reply.
const DefaultTextPath = "$.reply"

// Reply fields, in the order the probe prefers them, and conversation id
// fields: the names JSON APIs commonly give them.
var (
	replyKeys        = []string{"reply", "response", "answer", "output", "text", "content", "message", "result"}
	conversationKeys = []string{"conversation_id", "conversationId", "session_id", "sessionId", "thread_id", "threadId", "chat_id", "chatId"}
)

// ProbeHTTP sends message to a JSON API as the config init writes does,
// POST endpoint {"message": message}, and looks for the reply in the
// answer: the first string under one of replyKeys, the shallowest first
// (an array's first element stands for it), and a conversation id beside
// it. An answer with no reply found is an error quoting it.
func ProbeHTTP(ctx context.Context, hc *http.Client, endpoint, message string) (Observation, HTTPShape) {
	o := Observation{Message: message}
	var answer any
	if o.Err = exchange(ctx, hc, http.MethodPost, endpoint, map[string]string{"message": message}, &answer); o.Err != nil {
		return o, HTTPShape{}
	}
	var shape HTTPShape
	if p, v, ok := find(answer, replyKeys, 4, isString); ok {
		shape.Text, o.Reply = p, v.(string)
	}
	if p, _, ok := find(answer, conversationKeys, 2, isID); ok {
		shape.ConversationID = p
	}
	raw, _ := json.Marshal(answer)
	switch {
	case shape.Text == "":
		o.Err = fmt.Errorf("no reply found in the answer (none of %s holds a string): %s", strings.Join(replyKeys, ", "), excerpt(string(raw), maxReplyQuote))
	case strings.TrimSpace(o.Reply) == "":
		o.Err = fmt.Errorf("the reply at %s is empty", shape.Text)
	}
	return o, shape
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// isID is a string or a number: what a conversation id is.
func isID(v any) bool {
	switch v := v.(type) {
	case string:
		return v != ""
	case float64:
		return true
	}
	return false
}

// find looks breadth-first, at most depth levels down, for a member named
// one of keys whose value is ok: at each level the earlier key wins. It
// returns the member's JSON path and value.
func find(v any, keys []string, depth int, ok func(any) bool) (string, any, bool) {
	type node struct {
		path string
		v    any
	}
	level := []node{{"$", v}}
	for d := 0; d < depth && len(level) > 0; d++ {
		var next []node
		for _, key := range keys {
			for _, n := range level {
				if obj, isObj := n.v.(map[string]any); isObj {
					if val, has := obj[key]; has && ok(val) {
						return n.path + member(key), val, true
					}
				}
			}
		}
		for _, n := range level {
			switch x := n.v.(type) {
			case map[string]any:
				for _, k := range sortedKeys(x) {
					next = append(next, node{n.path + member(k), x[k]})
				}
			case []any:
				if len(x) > 0 {
					next = append(next, node{n.path + "[0]", x[0]})
				}
			}
		}
		level = next
	}
	return "", nil, false
}

// member is the path step to a member: .name, or ['name'] when name is
// not an identifier.
func member(name string) string {
	if plainName().MatchString(name) && !strings.ContainsAny(name, ".-") {
		return "." + name
	}
	return "['" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name) + "']"
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
