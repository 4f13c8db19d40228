package assertion

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/trace"
)

// The tools_list: checks (version 1.2) look at every tools/list listing in
// scope: an mcp:list_tools turn's one listing. A listing is the call
// trace.ListToolsCall whose result is {"tools": [{name, description,
// inputSchema}, ...]}.

const listing = "tools/list result"

// listedTool is one tool of a listing.
type listedTool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// listings are the tools/list calls in scope.
func listings(s trace.Scope) []*trace.ToolCall {
	var out []*trace.ToolCall
	for i := range s.Turns {
		for k := range s.Turns[i].ToolCalls {
			if c := &s.Turns[i].ToolCalls[k]; c.Name == trace.ListToolsCall {
				out = append(out, c)
			}
		}
	}
	return out
}

// listedTools decodes a listing, or says why it cannot.
func listedTools(c *trace.ToolCall) ([]listedTool, string) {
	if c.Result == nil {
		return nil, "no result arrived"
	}
	if c.Result.Error != "" {
		return nil, "the listing failed: " + quote(c.Result.Error)
	}
	var list struct {
		Tools *[]listedTool `json:"tools"`
	}
	if err := json.Unmarshal([]byte(c.Result.Content), &list); err != nil || list.Tools == nil {
		return nil, "the result is not a tools/list result ({\"tools\": [...]}): " + quote(c.Result.Content)
	}
	return *list.Tools, ""
}

func toolNames(tools []listedTool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return names
}

// listedNames renders a listing's names for messages: "3 tools: a, b, c".
func listedNames(names []string) string {
	if len(names) == 0 {
		return "no tools"
	}
	shown := names
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], fmt.Sprintf(", %d more", len(names)-10)
	}
	return plural.Count(len(names), "tool") + ": " + strings.Join(shown, ", ") + more
}

func toolsListInclude(r *Result, name string, want bool, s trace.Scope) {
	r.Expected = fmt.Sprintf("`%s` in the tools/list result", name)
	passed := fmt.Sprintf("lists `%s`", name)
	if !want {
		r.Expected = fmt.Sprintf("`%s` not in the tools/list result", name)
		passed = fmt.Sprintf("does not list `%s`", name)
	}
	eachCall(r, s, listings(s), listing, passed, func(c *trace.ToolCall) (string, Evidence) {
		tools, why := listedTools(c)
		if why != "" {
			return why, Evidence{}
		}
		names := toolNames(tools)
		ev := Evidence{Note: "listed", Text: shorten(strings.Join(names, ", "), 400)}
		switch has := slices.Contains(names, name); {
		case want && !has:
			return fmt.Sprintf("`%s` is not listed (%s)", name, listedNames(names)), ev
		case !want && has:
			return fmt.Sprintf("`%s` is listed, and must not be", name), ev
		}
		return "", ev
	})
}

func toolsListValidSchemas(r *Result, s trace.Scope) {
	r.Expected = "every listed tool's inputSchema a valid JSON Schema of an object"
	eachCall(r, s, listings(s), listing, "lists only tools with valid input schemas", func(c *trace.ToolCall) (string, Evidence) {
		tools, why := listedTools(c)
		if why != "" {
			return why, Evidence{}
		}
		bad := invalidSchemas(tools)
		if len(bad) == 0 {
			return "", Evidence{Note: fmt.Sprintf("%s, each inputSchema valid", plural.Count(len(tools), "tool"))}
		}
		ev := Evidence{Note: "invalid input schemas", Text: strings.Join(bad, "\n")}
		if len(bad) > maxReasons {
			bad = append(bad[:maxReasons], fmt.Sprintf("%d more", len(bad)-maxReasons))
		}
		return strings.Join(bad, "; "), ev
	})
}

// invalidSchemas says, for each tool of a listing whose inputSchema is not
// a valid JSON Schema of an object (MCP requires "type": "object"), why:
// "`search`: inputSchema ...".
func invalidSchemas(tools []listedTool) []string {
	var out []string
	for _, t := range tools {
		if why := invalidSchema(t.InputSchema); why != "" {
			out = append(out, fmt.Sprintf("`%s`: %s", t.Name, why))
		}
	}
	return out
}

// invalidSchema says why an inputSchema is not a valid JSON Schema of an
// object, or returns "". Its $refs may only point inside it: a server's
// schema makes Ananke load nothing, neither files nor URLs.
func invalidSchema(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "no inputSchema"
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return "inputSchema is not JSON: " + oneLine(err.Error())
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return fmt.Sprintf("inputSchema is %s, not an object", article(jsonType(doc)))
	}
	switch typ, ok := obj["type"]; {
	case !ok:
		return `inputSchema has no type; MCP requires "type": "object"`
	case typ != "object":
		return fmt.Sprintf(`inputSchema's type is %s; MCP requires "object"`, display(typ))
	}
	const url = "mem:///inputSchema.json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return "inputSchema: " + oneLine(err.Error())
	}
	if _, err := c.Compile(url); err != nil {
		return "inputSchema is not a valid JSON Schema: " + compileError(err)
	}
	return ""
}

// compileError says why a schema did not compile: a $ref to another
// document; against the metaschema, its first wrong keyword ("at
// /properties/n/minimum: got string, want number"); otherwise the error's
// first line.
func compileError(err error) string {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		return fmt.Sprintf("$ref %s points outside the schema, and Ananke loads no other document", le.URL)
	}
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		if leaves := schemaErrors(ve, nil); len(leaves) > 0 {
			return leaves[0].String()
		}
	}
	return oneLine(err.Error())
}
