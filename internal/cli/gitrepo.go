package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ananke/action/internal/scaffold"
)

// gitTimeout bounds each git command init runs (all of them local).
const gitTimeout = 10 * time.Second

// gitRoot is the root of the git work tree holding dir: the nearest
// directory with a .git (a directory, or a worktree's file); "" when dir is
// in none.
func gitRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// repoPath is dir relative to the root of the git repository holding it,
// slash-separated; "." when dir is the root or in no repository.
func repoPath(dir string) string {
	root := gitRoot(dir)
	if root == "" {
		return "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "."
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "."
	}
	return filepath.ToSlash(rel)
}

// defaultBranch is the branch a repository's pull requests go to, which
// the workflow init writes runs on (docs/init.md, "The workflow's branch"):
//  1. the remote's default branch, refs/remotes/origin/HEAD (set by git clone);
//  2. else the first of init.defaultBranch, main and master that exists as
//     a branch here or on origin;
//  3. else the current branch, even one with no commit yet (git init);
//  4. else scaffold.DefaultBranch — also when git is not installed or root
//     is no repository git reads.
func (a *app) defaultBranch(ctx context.Context, root string) string {
	if ref := a.git(ctx, root, "symbolic-ref", "-q", "refs/remotes/origin/HEAD"); ref != "" {
		return strings.TrimPrefix(ref, "refs/remotes/origin/")
	}
	candidates := []string{"main", "master"}
	if b := a.git(ctx, root, "config", "init.defaultBranch"); b != "" {
		candidates = append([]string{b}, candidates...)
	}
	for _, b := range candidates {
		for _, ref := range []string{"refs/heads/" + b, "refs/remotes/origin/" + b} {
			if a.git(ctx, root, "rev-parse", "-q", "--verify", ref) != "" {
				return b
			}
		}
	}
	if ref := a.git(ctx, root, "symbolic-ref", "-q", "HEAD"); strings.HasPrefix(ref, "refs/heads/") {
		return strings.TrimPrefix(ref, "refs/heads/")
	}
	return scaffold.DefaultBranch
}

// git runs git in dir with the app's environment and returns its output,
// trimmed; "" when it fails or is not installed.
func (a *app) git(ctx context.Context, dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = a.environ
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return ""
	}
	return strings.TrimSpace(out.String())
}
