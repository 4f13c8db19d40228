package bless

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/trace"
)

// Conversation is one test to bless: the traces of what happened, and
// what the blessed test is made from.
type Conversation struct {
	// ID and Name are the test's id and name.
	ID, Name string
	// File is the test file the conversation was played from: its turns,
	// client tools and hooks are kept as written. "" when there is none
	// (a transcript; a report whose test file is gone): the turns are then
	// rebuilt from the trace, or a transcript is the test's source.
	File string
	// Turns, when set, is how many of the test file's turns were played
	// (a recorded run that stopped early): the blessed test keeps those.
	Turns int
	// Source, for an imported transcript, is what the blessed test's
	// source: names.
	Source *Source
	// Traces are the attempts' traces, at least one: a check is inferred
	// only when it holds in every one.
	Traces []*trace.Trace
	// From says where the conversation came from, for the file's header
	// ("the recording recordings/main").
	From string
	// SnapshotRules are the suite's snapshot rules (its config's
	// snapshots: section), which the snapshot is taken under, as a run of
	// the blessed test takes it; the zero Rules are the defaults.
	SnapshotRules snapshot.Rules
	// Out, when set, is the blessed file's path (else OutName): the
	// snapshot check's comment names its snapshot file.
	Out string
	// available are the tools the agent had at hand, each with why (Offer).
	available map[string]string
}

// Source is a transcript a blessed test asserts on (its source: block).
type Source struct {
	// Format is the source format (claude-transcript, nanoclaw); Path the
	// file or folder, as found (Render writes it relative to the test).
	Format, Path string
	// Group, Session and Task pick a NanoClaw group's session or task.
	Group, Session, Task string
}

// Offer says the agent had tool at hand, and why (declared as a client
// tool, served as a double, called in another test): a tool offered but
// never called is forbidden (the forbid inference). The first reason given
// for a tool is kept.
func (c *Conversation) Offer(tool, why string) {
	if tool == "" || tool == trace.ListToolsCall {
		return
	}
	if c.available == nil {
		c.available = map[string]string{}
	}
	if _, ok := c.available[tool]; !ok {
		c.available[tool] = why
	}
}

// Called lists the tools the conversation's agent called in any attempt,
// sorted.
func (c *Conversation) Called() []string {
	set := map[string]bool{}
	for _, tr := range c.Traces {
		for i := range tr.Turns {
			for _, call := range tr.Turns[i].ToolCalls {
				if call.Name != trace.ListToolsCall {
					set[call.Name] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// OfferEachOther offers each conversation the tools the others called:
// tools the agent had in the same suite (why names the others: "other
// tests of the recording called it").
func OfferEachOther(convs []*Conversation, why string) {
	called := make([][]string, len(convs))
	for i, c := range convs {
		called[i] = c.Called()
	}
	for i, c := range convs {
		for j := range convs {
			if j == i {
				continue
			}
			for _, tool := range called[j] {
				c.Offer(tool, why)
			}
		}
	}
}

// OutName is the blessed file's name, relative to the output directory:
// the test's id when it is a relative path, else its file's name, else
// the transcript's (or the NanoClaw group's).
func (c *Conversation) OutName() string {
	const ext = ".ananke.yaml"
	switch {
	case c.ID != "" && filepath.IsLocal(filepath.FromSlash(c.ID)) && !strings.ContainsAny(c.ID, `\:*?"<>|`):
		return filepath.FromSlash(c.ID) + ext
	case c.File != "":
		return filepath.Base(c.File)
	case c.Source != nil && c.Source.Format == "nanoclaw":
		name := c.Source.Group
		if c.Source.Task != "" {
			name += "-" + c.Source.Task
		}
		return name + ext
	case c.Source != nil:
		return strings.TrimSuffix(filepath.Base(c.Source.Path), ".jsonl") + ext
	}
	return "blessed" + ext
}

// Label names the conversation in messages: its test's id, else its name.
func (c *Conversation) Label() string {
	if c.ID != "" {
		return c.ID
	}
	return c.Name
}

// OfferDeclared offers the client tools the test file declares (tools:
// names), when it has one.
func (c *Conversation) OfferDeclared() {
	if c.File == "" {
		return
	}
	src, err := os.ReadFile(c.File)
	if err != nil {
		return
	}
	var f struct {
		Tools []struct {
			Name string `yaml:"name"`
		} `yaml:"tools"`
	}
	if yaml.Unmarshal(src, &f) != nil {
		return
	}
	for _, t := range f.Tools {
		c.Offer(t.Name, "the test declares it as a client tool")
	}
}
