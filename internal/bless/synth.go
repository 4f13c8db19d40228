package bless

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/trace"
)

// fromTrace rebuilds a test from c's first trace, when its test file is
// gone: the history, the user turns, and each client tool the agent
// called, answering each call's arguments as it was answered.
func fromTrace(c *Conversation) (*yaml.Node, error) {
	tr := c.Traces[0]
	root := mapping("version", quoted("1.0"), "name", str(c.Name))
	if c.ID != "" {
		root.Content = append(root.Content, str("id"), str(c.ID))
	}
	if len(tr.History) > 0 {
		h := seq()
		for _, m := range tr.History {
			if len(m.Attachments) > 0 {
				return nil, fmt.Errorf("its history carries files, which a trace does not keep: bless it with its test file")
			}
			item := mapping("role", str(m.Role), "content", quoted(literal(m.Content)))
			item.Style = yaml.FlowStyle
			h.Content = append(h.Content, item)
		}
		root.Content = append(root.Content, str("history"), h)
	}
	if tools := clientTools(tr); len(tools.Content) > 0 {
		root.Content = append(root.Content, str("tools"), tools)
	}
	turns := seq()
	for i := range tr.Turns {
		t := &tr.Turns[i]
		if len(t.Attachments) > 0 {
			return nil, fmt.Errorf("turn %d carries files, which a trace does not keep: bless it with its test file", i)
		}
		switch t.Kind {
		case "user", "a2a:send", trace.KindSimulated:
			turns.Content = append(turns.Content, mapping("user", quoted(literal(t.UserText))))
		case "agui:connect":
			turns.Content = append(turns.Content, mapping("type", str(t.Kind)))
		default:
			return nil, fmt.Errorf("turn %d is a %s turn, which bless cannot rebuild from a trace: bless it with its test file", i, t.Kind)
		}
	}
	root.Content = append(root.Content, str("turns"), turns)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	header(doc, nil, fmt.Sprintf("Blessed by `ananke bless` from %s: the test rebuilt from its trace (its file was not found) — its user turns, and its client tools answering as they did — with the assertions inferred from what the agent did, each under a comment saying from what.", c.From))
	return doc, nil
}

// clientTools declares each client tool the trace's agent called, with
// the answer each call got: one result when every call got the same,
// else one entry per call matching its arguments exactly.
func clientTools(tr *trace.Trace) *yaml.Node {
	type answer struct{ args, result string }
	var names []string
	answers := map[string][]answer{}
	for i := range tr.Turns {
		for _, call := range tr.Turns[i].ToolCalls {
			if !call.Client || call.Result == nil {
				continue
			}
			if _, ok := answers[call.Name]; !ok {
				names = append(names, call.Name)
			}
			answers[call.Name] = append(answers[call.Name], answer{call.Args, call.Result.Content})
		}
	}
	declared := declaredTools(tr)
	for _, d := range declared {
		if _, ok := answers[d.name]; !ok {
			names = append(names, d.name)
		}
	}
	tools := seq()
	for _, name := range names {
		as := answers[name]
		tool := mapping("name", str(name))
		if i := slices.IndexFunc(declared, func(d declaration) bool { return d.name == name }); i >= 0 {
			if d := declared[i]; d.description != "" {
				tool.Content = append(tool.Content, str("description"), quoted(literal(d.description)))
			}
			if p := declared[i].parameters; p != nil {
				tool.Content = append(tool.Content, str("parameters"), p)
			}
		}
		if len(as) == 0 {
			v := quoted("")
			v.LineComment = "never called in the run: its answer is not known"
			tool.Content = append(tool.Content, str("result"), v)
			tools.Content = append(tools.Content, tool)
			continue
		}
		same := true
		for _, a := range as {
			same = same && a.result == as[0].result
		}
		if same {
			tool.Content = append(tool.Content, str("result"), quoted(literal(as[0].result)))
			tools.Content = append(tools.Content, tool)
			continue
		}
		results := seq()
		for _, a := range as {
			match := mapping()
			match.Style = yaml.FlowStyle
			for _, l := range leaves(a.args) {
				match.Content = append(match.Content, str(l.path), quoted(literal("^"+regexp.QuoteMeta(l.value)+"$")))
			}
			entry := mapping("result", quoted(literal(a.result)))
			if len(match.Content) > 0 {
				entry = mapping("args_match", match, "result", quoted(literal(a.result)))
			}
			results.Content = append(results.Content, entry)
		}
		tool.Content = append(tool.Content, str("results"), results)
		tools.Content = append(tools.Content, tool)
	}
	return tools
}

// declaration is a client tool as the run's first request declared it.
type declaration struct {
	name, description string
	parameters        *yaml.Node
}

// declaredTools are the client tools the trace's first request offered
// the agent: AG-UI's tools [{name, description, parameters}], or an
// OpenAI request's [{type: function, function: {…}}].
func declaredTools(tr *trace.Trace) []declaration {
	if len(tr.Turns) == 0 || len(tr.Turns[0].Runs) == 0 {
		return nil
	}
	var req struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			Function    *struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if json.Unmarshal(tr.Turns[0].Runs[0].Request, &req) != nil {
		return nil
	}
	var out []declaration
	for _, t := range req.Tools {
		name, desc, params := t.Name, t.Description, t.Parameters
		if t.Function != nil {
			name, desc, params = t.Function.Name, t.Function.Description, t.Function.Parameters
		}
		if name == "" {
			continue
		}
		d := declaration{name: name, description: desc}
		if len(params) > 0 && string(params) != "null" {
			var n yaml.Node
			// JSON is YAML: the schema is written as the flow mapping it was.
			if yaml.Unmarshal(params, &n) == nil && len(n.Content) == 1 {
				d.parameters = literalNode(n.Content[0])
			}
		}
		out = append(out, d)
	}
	return out
}

// literalNode writes every string of n literally (a ${ as $${).
func literalNode(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.ScalarNode {
		n.Value = literal(n.Value)
	}
	for _, c := range n.Content {
		literalNode(c)
	}
	return n
}
