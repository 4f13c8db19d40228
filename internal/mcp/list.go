package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/trace"
)

// maxListPages bounds the pages of one tools/list: a server whose cursor
// never ends must not hold a turn that has no timeout.
const maxListPages = 1000

// listPage is the part of a ListToolsResult a turn reads; the tools stay
// as the server sent them.
type listPage struct {
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor"`
}

// list plays an mcp:list_tools turn: tools/list, page after page, recorded
// as a run holding one call named trace.ListToolsCall whose result is
// {"tools": [...]}, every page's tools as the server sent them.
func (s *Session) list(ctx context.Context, rec *trace.Recorder) error {
	id := s.nextID()
	ctx, cancel := s.bound(ctx)
	defer cancel()
	s.wire.take()
	start := s.o.Now()
	rec.StartRun(id, start)
	c := trace.ToolCall{ID: id, Name: trace.ListToolsCall, Args: "{}", StartedMs: start.UnixMilli()}
	ex := exchange{rec: rec, call: &c}
	var request json.RawMessage
	tools := []json.RawMessage{}
	cursor := ""
	for range maxListPages {
		params := &sdk.ListToolsParams{Cursor: cursor}
		res, err := s.cs.ListTools(ctx, params)
		got, pending := s.wire.take()
		resp := ex.replay(got, methodList)
		if resp == nil && err == nil {
			// Answered, but not through the tap (a page larger than
			// maxLine): the SDK's decoding stands in for the bytes.
			raw, _ := json.Marshal(res)
			resp = &message{at: s.o.Now(), method: methodList, result: raw}
			ex.answer(resp, EventList)
		}
		if request == nil {
			request = requestOf(resp, pending, params)
		}
		if resp == nil {
			ex.end(request, s.o.Now())
			return s.failure(ctx, "list tools", err)
		}
		if resp.err != nil {
			c.Result = errorResult(resp.err)
			ex.end(request, s.o.Now())
			return nil
		}
		var page listPage
		if perr := json.Unmarshal(resp.result, &page); perr != nil || err != nil {
			ex.end(request, s.o.Now())
			if err == nil {
				err = perr
			}
			return fmt.Errorf("mcp: list tools: the result is not a valid ListToolsResult: %w", err)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			content, _ := json.Marshal(struct {
				Tools []json.RawMessage `json:"tools"`
			}{tools})
			c.Result = &trace.Result{Content: string(content), JSON: true}
			ex.end(request, s.o.Now())
			return nil
		}
		cursor = page.NextCursor
	}
	ex.end(request, s.o.Now())
	return fmt.Errorf("mcp: list tools: the server was still paging after %d pages", maxListPages)
}
