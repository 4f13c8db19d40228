// Package mcpschema checks the schemas of an MCP server's tools. It is
// apart from package mcp, so that assertions can check a recorded
// tools/list without the MCP client.
package mcpschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// InvalidSchemas checks the tools of a tools/list result ({"tools": [...]},
// as an mcp:list_tools turn records it) and returns one message per
// problem, in the tools' order; none when every schema is valid. A tool's
// inputSchema must be present, and it and its outputSchema (if any) must
// be JSON objects with "type": "object" (the MCP spec's Tool) that are
// valid JSON Schemas: they compile against their $schema's metaschema,
// 2020-12 without one (the MCP spec's default dialect). A $ref outside
// the schema is not followed: it is reported as unresolvable.
func InvalidSchemas(toolsList []byte) []string {
	var list struct {
		Tools *[]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(toolsList, &list); err != nil {
		return []string{"the tools/list result is not a JSON object: " + oneLine(err.Error())}
	}
	if list.Tools == nil {
		return []string{`the tools/list result has no "tools" list`}
	}
	var out []string
	for i, raw := range *list.Tools {
		var tool struct {
			Name         string          `json:"name"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		if json.Unmarshal(raw, &tool) != nil {
			out = append(out, fmt.Sprintf("tools[%d] is not a tool object", i))
			continue
		}
		name := fmt.Sprintf("tool %q", tool.Name)
		if tool.Name == "" {
			name = fmt.Sprintf("tools[%d] (no name)", i)
		}
		if len(tool.InputSchema) == 0 || string(tool.InputSchema) == "null" {
			out = append(out, name+" has no inputSchema")
		} else if msg := check(tool.InputSchema, i, "inputSchema"); msg != "" {
			out = append(out, name+": inputSchema "+msg)
		}
		if len(tool.OutputSchema) > 0 && string(tool.OutputSchema) != "null" {
			if msg := check(tool.OutputSchema, i, "outputSchema"); msg != "" {
				out = append(out, name+": outputSchema "+msg)
			}
		}
	}
	return out
}

// check returns what is wrong with one schema, "" when nothing is.
func check(raw json.RawMessage, tool int, member string) string {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return "is not JSON: " + oneLine(err.Error())
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return "is not a JSON object"
	}
	if t, ok := obj["type"].(string); !ok || t != "object" {
		return fmt.Sprintf(`must have "type": "object", has %s`, typeOf(obj))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// Nothing is fetched: a server's schema must not make Ananke read
	// files or the network.
	c.UseLoader(jsonschema.SchemeURLLoader{})
	url := fmt.Sprintf("https://ananke.invalid/tools/%d/%s", tool, member)
	if err := c.AddResource(url, doc); err != nil {
		return "is not a valid JSON Schema: " + oneLine(err.Error())
	}
	if _, err := c.Compile(url); err != nil {
		return "is not a valid JSON Schema: " + oneLine(strings.ReplaceAll(err.Error(), url, ""))
	}
	return ""
}

// typeOf quotes a schema's "type" for a message.
func typeOf(obj map[string]any) string {
	t, ok := obj["type"]
	if !ok {
		return "none"
	}
	b, _ := json.Marshal(t)
	return string(b)
}

// oneLine joins a multi-line message.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
