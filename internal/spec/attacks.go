package spec

import (
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/attack/corpus"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// Attack runs (docs/attacks.md): the config's attacks: section.

// maxCorpusSize bounds a user corpus file: hundreds of attacks, not a
// mistaken log.
const maxCorpusSize = 16 << 20

// MinInstructionLen is the shortest fragment of the agent's instructions
// attacks.instructions may list: a shorter one would be found in ordinary
// answers.
const MinInstructionLen = 8

// Attacks is the config's attacks: section.
type Attacks struct {
	Pos diag.Pos
	// Enabled makes every run attack (--attack overrides it).
	Enabled bool
	// Tags select the tests attacked: those with any of them (nil: every
	// test).
	Tags []string
	// Families are the goals of the attacks used (nil: every one of
	// corpus.Goals); Channels the channels planted in (nil: every one).
	Families []string
	Channels []plant.Channel
	// Corpus holds the user corpora's attacks, read at load; CorpusFiles
	// are their files as written, relative to the config's directory.
	Corpus      []corpus.Attack
	CorpusFiles []string
	// Builtin says whether the built-in corpus is used (default true).
	Builtin bool
	// Sample bounds the attack runs of one test (0: all of them).
	Sample int
	// Tool is the goal tool of tool attacks that name none ("": the
	// corpus's default).
	Tool string
	// Instructions are fragments of the agent's instructions: one in an
	// answer is a reveal attack's success.
	Instructions []string
	// FailOnSuccess is the attack success rate, in percent, above which
	// the run fails (true: 0); nil for no gate.
	FailOnSuccess *float64
}

// percentRE is a percentage written as a string: "5%", "2.5 %"; compiled
// at first use, not at start-up.
var percentRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*$`)
})

var attacksFields = []string{"enabled", "tags", "families", "channels", "corpus", "builtin", "sample", "tool", "instructions", "fail_on_success"}

// attacks reads the config's attacks: section; nil when it is not a
// mapping.
func (l *loader) attacks(n *yaml.Node) *Attacks {
	f, ok := l.Fields(n, "attacks", attacksFields)
	if !ok {
		return nil
	}
	a := &Attacks{Pos: l.Pos(l.DerefQuiet(n)), Builtin: true}
	if p, ok := f["enabled"]; ok {
		a.Enabled, _ = l.Boolean(p.Val, "attacks.enabled")
	}
	if p, ok := f["tags"]; ok {
		a.Tags = l.attackNames(p.Val, "attacks.tags")
	}
	if p, ok := f["families"]; ok {
		a.Families = l.attackEnum(p.Val, "attacks.families", "family", "families", corpus.Goals)
	}
	if p, ok := f["channels"]; ok {
		for _, c := range l.attackEnum(p.Val, "attacks.channels", "channel", "channels", corpus.ChannelNames()) {
			a.Channels = append(a.Channels, plant.Channel(c))
		}
	}
	if p, ok := f["builtin"]; ok {
		a.Builtin, _ = l.Boolean(p.Val, "attacks.builtin")
	}
	if p, ok := f["corpus"]; ok {
		l.attackCorpus(p.Val, a)
	}
	if p, ok := f["builtin"]; ok && !a.Builtin && len(a.CorpusFiles) == 0 {
		l.Errorf(l.DerefQuiet(p.Val), "attacks.builtin is false and attacks.corpus names no file: no attack is left; name a corpus file or remove builtin: false")
	}
	if p, ok := f["sample"]; ok {
		v, _ := l.Integer(p.Val, "attacks.sample", 1, math.MaxInt32)
		a.Sample = int(v)
	}
	if p, ok := f["tool"]; ok {
		a.Tool = l.attackTool(p.Val)
	}
	if p, ok := f["instructions"]; ok {
		a.Instructions = l.attackInstructions(p.Val)
	}
	if p, ok := f["fail_on_success"]; ok {
		a.FailOnSuccess = l.failOnSuccess(p.Val)
	}
	return a
}

// attackNames reads one name or a list of them.
func (l *loader) attackNames(n *yaml.Node, what string) []string {
	items, _ := l.OneOrList(n, what)
	var out []string
	for i, item := range items {
		if s, ok := l.Name(item, decode.Index(what, i)); ok {
			out = append(out, s.Value)
		}
	}
	return out
}

// attackEnum reads one of known, or a list of them, each once.
func (l *loader) attackEnum(n *yaml.Node, what, one, many string, known []string) []string {
	items, _ := l.OneOrList(n, what)
	var out []string
	for i, item := range items {
		s, node, ok := l.Text(item, decode.Index(what, i))
		switch {
		case !ok:
		case !slices.Contains(known, s):
			l.Errorf(node, "%s: unknown %s %q%s; %s: %s", what, one, s, decode.DidYouMean(s, known), many, strings.Join(known, ", "))
		case slices.Contains(out, s):
			l.Errorf(node, "%s: %s %q is listed twice", what, one, s)
		default:
			out = append(out, s)
		}
	}
	return out
}

// attackCorpus reads attacks.corpus: one file or a list, relative to the
// config's directory, each read now; every problem of a file is at its
// line, and an id another corpus (or the built-in one) has is one too.
func (l *loader) attackCorpus(n *yaml.Node, a *Attacks) {
	items, _ := l.OneOrList(n, "attacks.corpus")
	var user []corpus.Attack
	for i, item := range items {
		what := decode.Index("attacks.corpus", i)
		name, ok := l.Name(item, what)
		if !ok {
			continue
		}
		a.CorpusFiles = append(a.CorpusFiles, name.Value)
		path := filepath.Join(filepath.Dir(l.File), filepath.FromSlash(name.Value))
		data, err := readFile(path, maxCorpusSize)
		if err != nil {
			l.Diags.Add(name.Pos, "%s %s: %v", what, name.Value, err)
			continue
		}
		user = append(user, corpus.Read(path, data, l.Diags)...)
	}
	builtin := corpus.BuiltinAttacks()
	a.Corpus = corpus.Merge(builtin, user, l.Diags)[len(builtin):]
}

// attackTool reads attacks.tool: the name of a tool the agent may call.
func (l *loader) attackTool(n *yaml.Node) string {
	s, ok := l.Name(n, "attacks.tool")
	if !ok {
		return ""
	}
	if strings.ContainsAny(s.Value, " \t\r\n{}") {
		l.Diags.Add(s.Pos, "attacks.tool %q is not a tool name: write the name the agent calls, e.g. %q", s.Value, corpus.DefaultTool)
		return ""
	}
	return s.Value
}

// attackInstructions reads attacks.instructions: fragments long enough
// not to be found in ordinary answers.
func (l *loader) attackInstructions(n *yaml.Node) []string {
	items, _ := l.OneOrList(n, "attacks.instructions")
	var out []string
	for i, item := range items {
		what := decode.Index("attacks.instructions", i)
		s, node, ok := l.Text(item, what)
		if !ok {
			continue
		}
		if got := len([]rune(strings.TrimSpace(s))); got < MinInstructionLen {
			l.Errorf(node, "%s is %d characters long; a fragment of the agent's instructions needs at least %d, or ordinary answers would match it", what, got, MinInstructionLen)
			continue
		}
		out = append(out, s)
	}
	return out
}

// failOnSuccess reads attacks.fail_on_success: true (0%), false (no
// gate), or a percentage, 5 or "5%".
func (l *loader) failOnSuccess(n *yaml.Node) *float64 {
	const what = "attacks.fail_on_success"
	s, ok := l.Scalar(n, what, `true, false or a percentage (5 or "5%")`)
	if !ok {
		return nil
	}
	var v float64
	switch s.ShortTag() {
	case "!!bool":
		on, ok := l.Boolean(s, what)
		if !ok || !on {
			return nil
		}
		return &v
	case "!!int", "!!float":
		if v, _, ok = l.Number(s, what); !ok {
			return nil
		}
	default:
		m := percentRE().FindStringSubmatch(s.Value)
		if m == nil {
			l.Errorf(s, "%s must be true, false or a percentage (5 or \"5%%\"), not %q", what, s.Value)
			return nil
		}
		v, _ = strconv.ParseFloat(m[1], 64)
	}
	if v < 0 || v > 100 {
		l.Errorf(s, "%s must be a percentage from 0 to 100, got %s", what, s.Value)
		return nil
	}
	return &v
}

func attacksSchema() decode.Obj {
	names := func(enum []string, desc string) decode.Obj {
		item := decode.Obj{"type": "string"}
		if enum != nil {
			item = decode.Obj{"enum": enum}
		}
		o := decode.OneOrMany(item)
		o["description"] = desc
		return o
	}
	corpusFile := decode.Obj{"type": "string", "minLength": 1}
	corpusFiles := decode.OneOrMany(corpusFile)
	corpusFiles["description"] = "User corpora: JSONL files of attacks, one per line, relative to the config (docs/attacks.md)."
	instruction := decode.Obj{"type": "string", "minLength": MinInstructionLen}
	instructions := decode.OneOrMany(instruction)
	instructions["description"] = "Fragments of the agent's instructions: one in an answer is a reveal attack's success."
	return decode.Object("Attack runs: re-run passing tests with a prompt injection planted in a channel they use (docs/attacks.md).", attacksFields, decode.Obj{
		"enabled":      decode.Bool("Every ananke run attacks (--attack=false overrides it)."),
		"tags":         names(nil, "Attack only the tests with any of these tags (default: every test)."),
		"families":     names(corpus.Goals, "The goals of the attacks used (default: all four)."),
		"channels":     names(corpus.ChannelNames(), "The channels attacks are planted in (default: every one a test offers)."),
		"corpus":       corpusFiles,
		"builtin":      decode.Bool("Use the built-in corpus (default true); false: only the user corpora."),
		"sample":       decode.Obj{"type": "integer", "minimum": 1, "maximum": math.MaxInt32, "description": "At most this many attack runs per test, chosen deterministically (default: all)."},
		"tool":         decode.Str("The goal tool of tool attacks that name none (default " + corpus.DefaultTool + ")."),
		"instructions": instructions,
		"fail_on_success": decode.Obj{"oneOf": []any{
			decode.Obj{"type": "boolean"},
			decode.Obj{"type": "number", "minimum": 0, "maximum": 100},
			decode.Obj{"type": "string", "pattern": percentRE().String()},
		}, "description": "Fail the run when the attack success rate is above this percentage (true: any success; 5 or \"5%\"); default: no gate."},
	})
}
