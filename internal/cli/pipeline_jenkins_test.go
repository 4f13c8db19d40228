package cli

// The Jenkinsfile example (examples/jenkins/Jenkinsfile, docs/jenkins.md).
// No Jenkins runs in CI (docs/jenkins.md says why): the test reads the
// Jenkinsfile's Groovy as far as its steps go — which step, with which
// arguments, in which block — and checks what ananke runs and what the
// report steps are handed against Ananke itself.

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const jenkinsfile = "examples/jenkins/Jenkinsfile"

// groovyToken is a token of a Jenkinsfile: an identifier, a string
// literal (its value; gstring when double-quoted, which Groovy
// interpolates), a number, a newline or one punctuation character ("->"
// is one token).
type groovyToken struct {
	kind string // ident, string, gstring, number, newline, punct
	text string
	line int
}

// groovyTokens splits a Jenkinsfile into tokens, comments dropped. It
// knows the Groovy a declarative pipeline is written in: identifiers,
// numbers, strings in ' " ”' and """ with backslash escapes, // and /* */
// comments; anything else is punctuation.
func groovyTokens(src string) ([]groovyToken, error) {
	var toks []groovyToken
	line := 1
	rs := []rune(src)
	isIdent := func(r rune, first bool) bool {
		return r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || !first && r >= '0' && r <= '9'
	}
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\n':
			toks = append(toks, groovyToken{"newline", "\n", line})
			line++
		case c == ' ' || c == '\t' || c == '\r':
		case c == '/' && i+1 < len(rs) && rs[i+1] == '/':
			for i+1 < len(rs) && rs[i+1] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(rs) && rs[i+1] == '*':
			end := strings.Index(string(rs[i+2:]), "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: an unclosed /*", line)
			}
			comment := string(rs[i : i+2+end+2])
			line += strings.Count(comment, "\n")
			i += len([]rune(comment)) - 1
		case c == '\'' || c == '"':
			quote := string(c)
			if i+2 < len(rs) && rs[i+1] == c && rs[i+2] == c {
				quote = strings.Repeat(quote, 3)
			}
			start, at := i+len(quote), line
			var b strings.Builder
			for i = start; ; i++ {
				if i >= len(rs) {
					return nil, fmt.Errorf("line %d: an unclosed %s", at, quote)
				}
				if strings.HasPrefix(string(rs[i:min(i+len(quote), len(rs))]), quote) {
					break
				}
				switch rs[i] {
				case '\\':
					if i++; i < len(rs) {
						switch rs[i] {
						case 'n':
							b.WriteRune('\n')
						case 't':
							b.WriteRune('\t')
						default:
							b.WriteRune(rs[i])
						}
					}
				case '\n':
					if len(quote) == 1 {
						return nil, fmt.Errorf("line %d: a newline in a %s string", line, quote)
					}
					b.WriteRune('\n')
					line++
				default:
					b.WriteRune(rs[i])
				}
			}
			i += len(quote) - 1
			kind := "string"
			if c == '"' {
				kind = "gstring"
			}
			toks = append(toks, groovyToken{kind, b.String(), at})
		case isIdent(c, true):
			j := i
			for j < len(rs) && isIdent(rs[j], false) {
				j++
			}
			toks = append(toks, groovyToken{"ident", string(rs[i:j]), line})
			i = j - 1
		case c >= '0' && c <= '9':
			j := i
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == '.') {
				j++
			}
			toks = append(toks, groovyToken{"number", string(rs[i:j]), line})
			i = j - 1
		case c == '-' && i+1 < len(rs) && rs[i+1] == '>':
			toks = append(toks, groovyToken{"punct", "->", line})
			i++
		default:
			toks = append(toks, groovyToken{"punct", string(c), line})
		}
	}
	return toks, nil
}

// groovyCall is a step or method call of a Jenkinsfile: its name, its
// arguments — named (name: value, at any depth, so issues(pattern: …)
// inside recordIssues counts) and positional strings ("") — the calls made
// within them, and the blocks it stands in, outermost first (the name
// before each enclosing {: pipeline, stages, stage, steps, post, always…).
type groovyCall struct {
	name   string
	line   int
	args   map[string][]groovyToken
	calls  []string
	blocks []string
}

// arg is the one value of the named (or, for "", positional) argument.
func (c groovyCall) arg(name string) (groovyToken, bool) {
	if v := c.args[name]; len(v) == 1 {
		return v[0], true
	}
	return groovyToken{}, false
}

// in says whether the call stands in the block inner within outer.
func (c groovyCall) in(outer, inner string) bool {
	i := slices.Index(c.blocks, outer)
	return i >= 0 && slices.Contains(c.blocks[i+1:], inner)
}

// groovyCalls lists the calls of the tokens: an identifier followed by
// its arguments in parentheses, or by arguments up to the end of the line
// (a step called without parentheses: `junit testResults: '…'`), with
// the blocks each stands in.
func groovyCalls(toks []groovyToken) []groovyCall {
	var (
		calls  []groovyCall
		blocks []string
		depth  int    // ( and [ open
		last   string // the last identifier outside ( and [
	)
	for i, tok := range toks {
		switch {
		case tok.kind == "punct" && (tok.text == "(" || tok.text == "["):
			depth++
		case tok.kind == "punct" && (tok.text == ")" || tok.text == "]"):
			depth--
		case tok.kind == "punct" && tok.text == "{":
			blocks = append(blocks, last)
		case tok.kind == "punct" && tok.text == "}":
			if len(blocks) > 0 {
				blocks = blocks[:len(blocks)-1]
			}
		case tok.kind == "ident":
			if depth == 0 {
				last = tok.text
			}
			end, ok := callArgs(toks, i)
			if !ok {
				continue
			}
			c := groovyCall{name: tok.text, line: tok.line, args: map[string][]groovyToken{}, blocks: slices.Clone(blocks)}
			for k := i + 1; k < end; k++ {
				t := toks[k]
				switch {
				case t.kind == "ident" && k+1 < end && toks[k+1].text == ":" && k+2 < end:
					c.args[t.text] = append(c.args[t.text], toks[k+2])
					k += 2
				case t.kind == "ident" && k+1 < end && toks[k+1].text == "(":
					c.calls = append(c.calls, t.text)
				case (t.kind == "string" || t.kind == "gstring") && toks[k-1].text != ":":
					c.args[""] = append(c.args[""], t)
				}
			}
			calls = append(calls, c)
		}
	}
	return calls
}

// callArgs says whether the identifier at i is called, and where its
// arguments end: at its closing parenthesis; or, for a step called without
// parentheses (a string or a named argument follows it, and no dot
// precedes it: `junit testResults: '…'`), at the end of its line, its
// statement (;) or its block (}).
func callArgs(toks []groovyToken, i int) (int, bool) {
	if i+1 >= len(toks) {
		return 0, false
	}
	next := toks[i+1]
	bare := next.kind == "string" || next.kind == "gstring" || next.kind == "ident" && i+2 < len(toks) && toks[i+2].text == ":"
	if next.text != "(" && (!bare || i > 0 && toks[i-1].text == ".") {
		return 0, false
	}
	depth := 0
	for k := i + 1; k < len(toks); k++ {
		switch tok := toks[k]; {
		case tok.text == "(" || tok.text == "[":
			depth++
		case tok.text == ")" || tok.text == "]":
			if depth--; depth == 0 && next.text == "(" {
				return k, true
			}
		case depth == 0 && next.text != "(" && (tok.kind == "newline" || tok.text == ";" || tok.text == "}"):
			return k, true
		}
	}
	return len(toks), next.text != "("
}

// readJenkinsfile reads the example's calls and its environment block's
// variables.
func readJenkinsfile(t *testing.T) ([]groovyCall, map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(), jenkinsfile))
	if err != nil {
		t.Fatal(err)
	}
	toks, err := groovyTokens(string(b))
	if err != nil {
		t.Fatalf("%s: %v", jenkinsfile, err)
	}
	env := map[string]string{}
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].text != "environment" || toks[i+1].text != "{" {
			continue
		}
		for k := i + 2; k < len(toks) && toks[k].text != "}"; k++ {
			if toks[k].kind != "ident" || k+2 >= len(toks) || toks[k+1].text != "=" {
				continue
			}
			if v := toks[k+2]; v.kind == "string" {
				env[toks[k].text] = v.text
			} else {
				t.Errorf("%s:%d: environment %s is not a plain string", jenkinsfile, v.line, toks[k].text)
			}
		}
	}
	return groovyCalls(toks), env
}

// TestJenkinsfile: the example runs `ananke run` in Ananke's released image
// (its entry point cleared, the agent linked under the host name its
// --endpoint names) with flags Ananke has, in a sh step Groovy does not
// interpolate; and, in post's always block, hands to the JUnit plugin
// (properties kept, a missing file an error), Warnings NG's native format,
// archiveArtifacts and the HTML Publisher files Ananke writes in the run's
// report directory.
func TestJenkinsfile(t *testing.T) {
	calls, env := readJenkinsfile(t)
	if env["ANANKE_IMAGE"] != releasedImage {
		t.Errorf("environment ANANKE_IMAGE = %q; want %s", env["ANANKE_IMAGE"], releasedImage)
	}
	byName := map[string][]groovyCall{}
	for _, c := range calls {
		byName[c.name] = append(byName[c.name], c)
	}

	var runs []*flag.FlagSet
	var runCall groovyCall
	for _, c := range byName["sh"] {
		script, ok := c.arg("script")
		if !ok {
			script, ok = c.arg("")
		}
		if !ok || script.kind != "string" {
			t.Errorf("%s:%d: sh takes one single-quoted script (Groovy interpolates double-quoted ones; the shell expands the environment)", jenkinsfile, c.line)
			continue
		}
		for _, args := range anankeCommands(t, fmt.Sprintf("%s:%d", jenkinsfile, c.line), []string{script.text}, env) {
			fs, err := anankeFlags(args)
			if err != nil {
				t.Errorf("%s:%d: %v", jenkinsfile, c.line, err)
				continue
			}
			if args[0] == "run" {
				runs, runCall = append(runs, fs), c
			}
		}
	}
	if len(runs) != 1 {
		t.Fatalf("%s runs ananke run %d times; want once", jenkinsfile, len(runs))
	}
	run := runs[0]
	reportDir := flagValue(t, run, "report-dir")

	// The run happens inside Ananke's image, the agent linked beside it.
	inside := byName["inside"]
	if len(inside) != 1 || !slices.Contains(runCall.blocks, "inside") {
		t.Fatalf("%s: ananke run is not in the one docker.image(…).inside block", jenkinsfile)
	}
	opts, _ := inside[0].arg("")
	if !regexp.MustCompile(`--entrypoint=(''|"")?(\s|$)`).MatchString(opts.text) {
		t.Errorf("%s:%d: inside(%q) does not clear the image's entry point (ananke) with --entrypoint=", jenkinsfile, inside[0].line, opts.text)
	}
	link := regexp.MustCompile(`--link \S+:(\S+)`).FindStringSubmatch(opts.text)
	if u, err := url.Parse(flagValue(t, run, "endpoint")); link == nil || err != nil || u.Hostname() != link[1] {
		t.Errorf("%s: ananke run --endpoint %q is not the agent linked by inside(%q)", jenkinsfile, flagValue(t, run, "endpoint"), opts.text)
	}

	written := writtenReportDir(t)
	step := func(name string) (groovyCall, bool) {
		cs := byName[name]
		if len(cs) != 1 {
			t.Errorf("%s calls %s %d times; want once", jenkinsfile, name, len(cs))
			return groovyCall{}, false
		}
		if !cs[0].in("post", "always") {
			t.Errorf("%s:%d: %s is not in post { always { … } } (blocks %q): it must read the reports of a failed run too", jenkinsfile, cs[0].line, name, cs[0].blocks)
		}
		return cs[0], true
	}
	want := func(c groovyCall, arg, value string) {
		if v, ok := c.arg(arg); !ok || v.text != value {
			t.Errorf("%s:%d: %s %s: %q; want %s", jenkinsfile, c.line, c.name, arg, v.text, value)
		}
	}
	file := func(c groovyCall, arg, want string) {
		v, ok := c.arg(arg)
		if !ok || v.kind != "string" {
			t.Errorf("%s:%d: %s has no single-quoted %s", jenkinsfile, c.line, c.name, arg)
			return
		}
		if want != "" && v.text != strings.TrimSuffix(reportDir, "/")+"/"+want {
			t.Errorf("%s:%d: %s %s: %q; want %s/%s", jenkinsfile, c.line, c.name, arg, v.text, reportDir, want)
		}
		if err := inReportDir(v.text, reportDir, written); err != nil {
			t.Errorf("%s:%d: %s %s: %v", jenkinsfile, c.line, c.name, arg, err)
		}
	}
	if c, ok := step("junit"); ok {
		file(c, "testResults", "junit.xml")
		want(c, "keepProperties", "true")
		want(c, "allowEmptyResults", "false")
	}
	if c, ok := step("recordIssues"); ok {
		if !slices.Equal(c.calls, []string{"issues"}) {
			t.Errorf("%s:%d: recordIssues's tools call %q; want issues (Warnings NG's native format)", jenkinsfile, c.line, c.calls)
		}
		file(c, "pattern", "warnings-ng-issues.json")
		want(c, "enabledForFailure", "true")
	}
	if c, ok := step("archiveArtifacts"); ok {
		file(c, "artifacts", "")
	}
	if c, ok := step("publishHTML"); ok {
		want(c, "reportDir", reportDir)
		if v, ok := c.arg("reportFiles"); !ok {
			t.Errorf("%s:%d: publishHTML has no reportFiles", jenkinsfile, c.line)
		} else if err := inReportDir(reportDir+"/"+v.text, reportDir, written); err != nil {
			t.Errorf("%s:%d: publishHTML reportFiles: %v", jenkinsfile, c.line, err)
		}
	}
}

// TestGroovyCalls: the Jenkinsfile reader finds steps with and without
// parentheses, their named and positional arguments, the calls within
// them and the blocks they stand in; strings and comments hide nothing.
func TestGroovyCalls(t *testing.T) {
	src := `pipeline {
  stages {
    stage('a') {
      steps { sh 'echo "}" // not a comment'; sh(script: '''x
y''', returnStatus: true) }
      /* junit 'commented.xml' */
      post { always { junit testResults: 'r/junit.xml', keepProperties: true
        recordIssues tools: [issues(pattern: "r/*.json")] } }
    }
  }
}`
	toks, err := groovyTokens(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range groovyCalls(toks) {
		var args []string
		for _, name := range []string{"", "script", "testResults", "keepProperties", "pattern", "returnStatus"} {
			for _, v := range c.args[name] {
				args = append(args, fmt.Sprintf("%s=%s:%q", name, v.kind, v.text))
			}
		}
		got = append(got, fmt.Sprintf("%d %s %v %v in %s", c.line, c.name, args, c.calls, strings.Join(c.blocks, "/")))
	}
	want := []string{
		`3 stage [=string:"a"] [] in pipeline/stages`,
		`4 sh [=string:"echo \"}\" // not a comment"] [] in pipeline/stages/stage/steps`,
		`4 sh [script=string:"x\ny" returnStatus=ident:"true"] [] in pipeline/stages/stage/steps`,
		`7 junit [testResults=string:"r/junit.xml" keepProperties=ident:"true"] [] in pipeline/stages/stage/post/always`,
		`8 recordIssues [pattern=gstring:"r/*.json"] [issues] in pipeline/stages/stage/post/always`,
		`8 issues [pattern=gstring:"r/*.json"] [] in pipeline/stages/stage/post/always`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJenkinsDocsShowJenkinsfile: docs/jenkins.md shows the example as it
// is (without its heading comment).
func TestJenkinsDocsShowJenkinsfile(t *testing.T) {
	docShows(t, "docs/jenkins.md", jenkinsfile, "groovy", "//")
}
