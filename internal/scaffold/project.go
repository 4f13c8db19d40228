package scaffold

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"unicode"

	"github.com/ananke/action/internal/spec"
)

// The files a project starts with, relative to its directory (the workflow
// to the repository's root).
const (
	ConfigFile   = "ananke.config.yaml"
	TestFile     = "tests/first.ananke.yaml"
	WorkflowFile = ".github/workflows/agent-tests.yml"
)

// maxReplyQuote bounds the reply quoted in the first test's comment.
const maxReplyQuote = 200

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{"quote": quote, "plain": plain}).ParseFS(templateFS, "templates/*.tmpl"))
})

// Target types init writes a project for.
const (
	TypeAGUI   = "agui"
	TypeOpenAI = "openai"
	TypeHTTP   = "http"
)

// Project says what `ananke init` writes for an agent.
type Project struct {
	// Type is the target's type: TypeAGUI ("" too), TypeOpenAI or
	// TypeHTTP.
	Type     string
	Endpoint string
	// AgentID is an agui target's.
	AgentID string
	// API ("chat" or "responses") and Model are an openai target's.
	API, Model string
	// HTTP is where an http target's answers hold the reply and the
	// conversation id, as the probe found them; a zero Text is
	// DefaultTextPath.
	HTTP HTTPShape
	// Message is the first test's user message.
	Message string
	// Probe is what the agent did with Message; nil when it was not
	// probed, NotProbed then saying why ("not probed (--no-probe)").
	Probe     *Observation
	NotProbed string
	// InRepo is the project directory relative to its repository's root,
	// slash-separated ("" or "." for the root itself): GitHub reads
	// workflows only from the root's .github/workflows.
	InRepo string
	// Branch is the repository's default branch, whose pushes the workflow
	// runs on (its reports are what pull requests are compared with);
	// "" means DefaultBranch.
	Branch string
}

// DefaultBranch is the workflow's branch when the repository's default
// branch is not known.
const DefaultBranch = "main"

// Files renders the config, the first test and the workflow.
func (p Project) Files() ([]File, error) {
	inRepo := path.Clean("./" + p.InRepo)
	up := ""
	if inRepo != "." {
		up = strings.Repeat("../", strings.Count(inRepo, "/")+1)
	}
	service := serviceEndpoint(p.Endpoint)
	branch := p.Branch
	if branch == "" {
		branch = DefaultBranch
	}
	data := map[string]any{
		"Branch":          branch,
		"ConfigSchema":    spec.SchemaBaseURL + spec.SchemaFile("config"),
		"TestSchema":      spec.SchemaBaseURL + spec.SchemaFile("test"),
		"Endpoint":        p.Endpoint,
		"AgentID":         p.AgentID,
		"Message":         strings.ReplaceAll(p.Message, "${", "$${"), // the message is sent as written
		"ServiceEndpoint": service.String(),
		"ServiceURL":      (&url.URL{Scheme: service.Scheme, Host: service.Host}).String(),
		"WorkflowConfig":  plainOrQuoted(path.Join(inRepo, ConfigFile)),
		"Type":            cmp.Or(p.Type, TypeAGUI),
		"API":             cmp.Or(p.API, "chat"),
		"Model":           p.Model,
	}
	if p.Type == TypeHTTP {
		data["TextPath"], data["TextNote"] = httpText(p)
		data["ConversationPath"] = p.HTTP.ConversationID
	}
	switch o := p.Probe; {
	case o == nil:
		data["Why"], data["Text"] = excerpt(p.NotProbed, maxReplyQuote), true
	case o.Err != nil:
		data["Why"], data["Text"] = excerpt("the agent did not answer the probe: "+o.Err.Error(), maxReplyQuote), true
	default:
		called := "no tool"
		if len(o.Tools) > 0 {
			called = strings.Join(o.Tools, ", ")
		}
		reply := "(no text)"
		if o.Reply != "" {
			reply = strconv.Quote(excerpt(o.Reply, maxReplyQuote))
		}
		data["Observed"], data["Reply"], data["Called"] = true, reply, excerpt(called, maxReplyQuote)
		data["Text"], data["Tools"] = o.Reply != "", o.Tools
	}
	var files []File
	for _, f := range []struct{ tmpl, path string }{
		{"ananke.config.yaml.tmpl", ConfigFile},
		{"first.ananke.yaml.tmpl", TestFile},
		{"agent-tests.yml.tmpl", up + WorkflowFile},
	} {
		var b bytes.Buffer
		if err := templates().ExecuteTemplate(&b, f.tmpl, data); err != nil {
			return nil, fmt.Errorf("render %s: %w", f.path, err)
		}
		files = append(files, File{Path: f.path, Data: b.Bytes()})
	}
	return files, nil
}

// httpText is an http target's response.text and what the config's
// comment says of it.
func httpText(p Project) (path, note string) {
	switch {
	case p.HTTP.Text != "":
		return p.HTTP.Text, "found by init's probe"
	case p.Probe == nil:
		return DefaultTextPath, "where your API's answer holds the reply: edit"
	}
	return DefaultTextPath, "init's probe found no reply: edit"
}

// serviceEndpoint is endpoint as the action reaches a service container
// labelled "agent" in CI: plain HTTP to the same port and path on host
// "agent".
func serviceEndpoint(endpoint string) *url.URL {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return &url.URL{Scheme: "http", Host: "agent:8000", Path: "/agent"}
	}
	s := *u
	s.Scheme, s.User, s.Host = "http", nil, "agent"
	if port := u.Port(); port != "" {
		s.Host = net.JoinHostPort("agent", port)
	}
	return &s
}

// quote writes s as a YAML double-quoted scalar (JSON's string syntax is
// YAML's).
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

var (
	plainName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`) })
	plainPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._/-]*$`) })
)

// plain writes a name without quotes when YAML reads it back as the same
// string (not as true, null or a number), else quoted.
func plain(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return quote(s)
	}
	if plainName().MatchString(s) {
		return s
	}
	return quote(s)
}

// plainOrQuoted writes a path plain when YAML reads it back unchanged.
func plainOrQuoted(s string) string {
	if plainPath().MatchString(s) {
		return s
	}
	return quote(s)
}

// excerpt is s on one line (every run of white space one space, other
// control characters dropped), cut to max characters.
func excerpt(s string, max int) string {
	s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
