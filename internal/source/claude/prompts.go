package claude

import (
	"regexp"
	"strings"
	"sync"
)

// interrupted starts the text of the user lines Claude Code writes when the
// user interrupts a request; they are not prompts.
const interrupted = "[Request interrupted by user"

// notPrompts start the text of user lines Claude Code writes that the user
// did not type to the agent: the output of a local command (/model, /cost)
// and its caveat, the shell mode's command and output (`!ls`), and a
// background task's notification.
var notPrompts = []string{"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"<bash-input>", "<bash-stdout>", "<bash-stderr>", "<task-notification>"}

// kinds of user lines.
const (
	kindOther   = iota
	kindPrompt  // a prompt the user typed
	kindCommand // a slash command: a prompt when the agent answers it
)

// classify says what a user line is, and the text of a prompt or a
// command ("/review 12").
func classify(e *entry, bs []block, alone bool) (int, string) {
	if e.IsMeta || e.IsCompactSummary || (e.IsSidechain && !alone) || e.originKind() == "task-notification" {
		return kindOther, ""
	}
	text, ok := promptOf(bs)
	if !ok {
		return kindOther, ""
	}
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, interrupted) {
		return kindOther, ""
	}
	for _, p := range notPrompts {
		if strings.HasPrefix(t, p) {
			return kindOther, ""
		}
	}
	if strings.HasPrefix(t, "<command-name>") || strings.HasPrefix(t, "<command-message>") {
		if name := tag(t, "command-name"); name != "" {
			if !strings.HasPrefix(name, "/") {
				name = "/" + name
			}
			if args := tag(t, "command-args"); args != "" {
				name += " " + args
			}
			return kindCommand, name
		}
	}
	return kindPrompt, text
}

// promptOf is the text of a user message that may be a prompt: text or
// images, and no tool results.
func promptOf(bs []block) (string, bool) {
	prompt := false
	for i := range bs {
		switch bs[i].Type {
		case "tool_result":
			return "", false
		case "text", "image":
			prompt = true
		}
	}
	if !prompt {
		return "", false
	}
	text, _ := texts(bs, "\n")
	return text, true
}

var tagREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"command-name": regexp.MustCompile(`(?s)<command-name>(.*?)</command-name>`),
		"command-args": regexp.MustCompile(`(?s)<command-args>(.*?)</command-args>`),
	}
})

// tag is the trimmed text of the first <name>…</name> in s.
func tag(s, name string) string {
	if m := tagREs()[name].FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}
