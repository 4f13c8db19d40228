package engine

import (
	"slices"
	"strings"

	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/target"
)

// An attack run (spec.Test.Attack, docs/attacks.md) plants its payload
// where the value it goes into is resolved, one call each, and changes
// nothing when the test is no attack run (a nil plant):
//   - user: newPlan (plan.go), the first user or a2a:send turn with text;
//   - history: Setup.History (protocol.go), the message at the site's
//     index;
//   - attachment: Resolver.parts (resolve.go), the textual file of the
//     site's name, in a turn or in the history;
//   - simulator: simulate (dynamic.go), the simulated user's first
//     message;
//   - tool_result and state: the AG-UI protocol's openAGUI and answer
//     (target/registry), where it resolves a client tool's answers and
//     the state it sends;
//   - double: decl.Config.Choose (doubles/decl), every result the tool's
//     double answers in the attempt.

// plantMessage plants p's payload at (c, site) in a message, when p
// plants there: appended to its text; a message of parts gets it in its
// first text part (a new last text part when it has none), and its text
// is then its text parts joined, as a test file's message is, so the
// trace shows what was sent.
func plantMessage(p *plant.Plant, c plant.Channel, site, text string, parts []target.Part) (string, []target.Part) {
	if !p.At(c, site) {
		return text, parts
	}
	if parts == nil {
		return p.Text(c, site, text), nil
	}
	parts = slices.Clone(parts)
	if i := slices.IndexFunc(parts, func(pt target.Part) bool { return pt.Type == "text" }); i >= 0 {
		parts[i].Text = p.Text(c, site, parts[i].Text)
	} else {
		parts = append(parts, target.Part{Type: "text", Text: p.Payload})
	}
	var texts []string
	for _, pt := range parts {
		if pt.Type == "text" {
			texts = append(texts, pt.Text)
		}
	}
	return strings.Join(texts, "\n"), parts
}

// plantFile plants p's payload in the data of file name, when p plants
// there and the file is text (plant.Textual).
func plantFile(p *plant.Plant, name, mime string, data []byte) []byte {
	if !p.At(plant.Attachment, name) || !plant.Textual(mime) {
		return data
	}
	return []byte(p.Text(plant.Attachment, name, string(data)))
}
