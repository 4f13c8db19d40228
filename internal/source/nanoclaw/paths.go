package nanoclaw

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// GlobalGroup is the folder of the memory every group shares.
const GlobalGroup = "global"

// groupFolderPattern is NanoClaw's GROUP_FOLDER_PATTERN (src/group-folder.ts).
var groupFolderPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`) })

// validGroupFolder reports whether folder is a name NanoClaw accepts for a
// group ("global" is reserved).
func validGroupFolder(folder string) bool {
	return groupFolderPattern().MatchString(folder) && !strings.EqualFold(folder, GlobalGroup)
}

// hostPath maps a path as the group's agent saw it in its container to
// the group folder it lies in and its path on the host, relative to the
// NanoClaw root ("groups/family/CLAUDE.md"). A relative path is relative to
// the working directory, the group's folder. The group's Claude Code
// auto-memory (~/.claude/projects/<workdir>/memory) is the group's too. ok
// is false for a path outside every group's memory (the project's source,
// the databases, /tmp, ...).
func (r *reader) hostPath(p string) (owner, rel string, ok bool) {
	if p == "" {
		return "", "", false
	}
	lay := r.layout()
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		p = path.Join(path.Dir(containerClaude), rest)
	}
	if !path.IsAbs(p) {
		p = path.Join(lay.workdir, p)
	}
	p = path.Clean(p)
	if rest, ok := under(p, lay.workdir); ok {
		return r.Group, path.Join("groups", r.Group, rest), true
	}
	if rest, ok := under(p, containerGlobal); ok {
		return GlobalGroup, path.Join("groups", GlobalGroup, rest), true
	}
	if rest, ok := under(p, path.Join(containerClaude, "projects", claudeProject(lay.workdir), "memory")); ok {
		return r.Group, path.Join(r.autoMemoryDir(), rest), true
	}
	if rest, ok := under(p, containerProject+"/groups"); ok && rest != "" && lay.project {
		g, _, _ := strings.Cut(rest, "/")
		if g == GlobalGroup || validGroupFolder(g) {
			return g, path.Join("groups", rest), true
		}
	}
	return "", "", false
}

// under returns p's path below dir ("" for dir itself).
func under(p, dir string) (string, bool) {
	if p == dir {
		return "", true
	}
	if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
		return rest, true
	}
	return "", false
}

// globRoot is the directory a glob pattern searches: its part before the
// first path element with a wildcard.
func globRoot(pattern string) string {
	elems := strings.Split(pattern, "/")
	for i, e := range elems {
		if strings.ContainsAny(e, "*?[{") {
			switch root := strings.Join(elems[:i], "/"); {
			case root != "":
				return root
			case strings.HasPrefix(pattern, "/"):
				return "/"
			default:
				return "."
			}
		}
	}
	return pattern
}

// workspacePath finds the container paths a shell command names: under
// /workspace, and under the agent's ~/.claude.
var workspacePath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_./~-])((?:/workspace/|/home/node/\.claude/|~/\.claude/)[^\s'"` + "`" + `;|&<>()$]*)`)
})

// commandPaths returns the paths a shell command names: every absolute path
// under /workspace or ~/.claude, and every relative word that names a file or folder of
// the working directory (exists reports whether one does). Glob patterns
// stand for the folder they search.
func commandPaths(command string, exists func(rel string) bool) []string {
	var out []string
	add := func(p string) {
		p = globRoot(p)
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	for _, m := range workspacePath().FindAllStringSubmatch(command, -1) {
		add(m[1])
	}
	for _, w := range shellWords(command) {
		if w == "" || strings.HasPrefix(w, "-") || path.IsAbs(w) || strings.Contains(w, "=") {
			continue
		}
		if exists(path.Clean(globRoot(w))) {
			add(w)
		}
	}
	return out
}

// shellWords splits a command into words the way a shell would, roughly:
// quotes group, a backslash escapes, and operators separate words.
func shellWords(command string) []string {
	var words []string
	var b strings.Builder
	in := false // b holds a word, maybe empty ("")
	var quote rune
	escaped := false
	flush := func() {
		if in {
			words = append(words, b.String())
		}
		b.Reset()
		in = false
	}
	for _, r := range command {
		switch {
		case escaped:
			b.WriteRune(r)
			escaped = false
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' {
				escaped = true
			} else {
				b.WriteRune(r)
			}
		case r == '\\':
			escaped, in = true, true
		case r == '\'' || r == '"':
			quote, in = r, true
		case strings.ContainsRune(" \t\n;|&<>()", r):
			flush()
		default:
			b.WriteRune(r)
			in = true
		}
	}
	flush()
	return words
}
