package generate

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/spec"
)

// DefaultPrompt is generation's system prompt; a config replaces it with
// model.prompts.generate (docs/models.md). The test file format's JSON
// Schema and the suite's example files follow it.
const DefaultPrompt = `You write Ananke test files: YAML files that test an AI agent over the AG-UI protocol.

A test file has version "1.0", a name, and turns: each turn sends a user message and may
assert what the agent must do in that turn. Assertions check tool calls (tools.require
with name, count, args_match, result_match; tools.forbid; tools.order), the reply's text
(text.contains, text.omits, text.must_match with Go regular expressions), and more, as the
JSON Schema below defines. Prefer checking which tools the agent calls, and with which
arguments, over exact wording. Use only tool names the task or the examples mention. Do
not use hooks or ${VARIABLES}. Each file holds one test.

Answer with JSON only: {"tests": [{"file": "short-name.ananke.yaml", "yaml": "<the file>"}]}.
File names are lower case, with '-' between words, ending in .ananke.yaml.`

func systemPrompt(o Options) string {
	prompt := o.Prompt
	if prompt == "" {
		prompt = DefaultPrompt
	}
	schema, _ := spec.Schema("test")
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nThe test file format (JSON Schema):\n%s", prompt, schema)
	for i, ex := range o.Examples {
		fmt.Fprintf(&b, "\nExample %d of this suite's tests:\n%s\n", i+1, ex)
	}
	return b.String()
}

func ask(o Options) string {
	return fmt.Sprintf("Write %d test files that test: %s", o.Count, o.What)
}

// fix asks for corrected versions of the rejected drafts.
func fix(rejected []Rejected) string {
	var b strings.Builder
	b.WriteString("These files are not valid; answer again with corrected versions of them only (same file names):\n")
	for _, r := range rejected {
		fmt.Fprintf(&b, "\n%s:\n", r.File)
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "- %s\n", p)
		}
	}
	return b.String()
}
