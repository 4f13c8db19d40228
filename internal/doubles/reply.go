package doubles

import (
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/doubles/decl"
	"github.com/ananke/action/internal/trace"
)

// toolResult is the CallToolResult of a reply's result: a string as text
// content; an object as structured content and its JSON as text content
// (structured content is an object in MCP; an error result has none);
// anything else as its JSON text.
func toolResult(r *decl.Reply) *sdk.CallToolResult {
	res := &sdk.CallToolResult{IsError: r.IsError}
	var text string
	switch {
	case len(r.Result) > 0 && r.Result[0] == '"':
		_ = json.Unmarshal(r.Result, &text) // written by literal or readResultFile: valid
	default:
		text = string(r.Result)
		if len(r.Result) > 0 && r.Result[0] == '{' && !r.IsError {
			res.StructuredContent = json.RawMessage(r.Result)
		}
	}
	res.Content = []sdk.Content{&sdk.TextContent{Text: text}}
	return res
}

// errorResult is an error result with one text.
func errorResult(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// traced is the trace's result of what the agent was sent: the
// CallToolResult's JSON, and its text when it is an error.
func traced(res *sdk.CallToolResult) *trace.Result {
	raw, err := json.Marshal(res)
	if err != nil {
		raw, _ = json.Marshal(err.Error())
	}
	out := &trace.Result{Content: string(raw), JSON: json.Valid(raw)}
	if res.IsError {
		out.Error = "the tool reported an error (isError) without text"
		for _, c := range res.Content {
			if t, ok := c.(*sdk.TextContent); ok && t.Text != "" {
				out.Error = t.Text
				break
			}
		}
	}
	return out
}
