package claude

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Sessions lists the session transcripts of a Claude Code project folder
// (~/.claude/projects/<cwd>/): its *.jsonl files, sorted by name. A
// session's subagents, in <session>/subagents/, are read with it.
func Sessions(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jsonl") && e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}

// tailSize is how much of a transcript's end Newest reads for its last
// timestamp.
const tailSize = 256 << 10

// Newest returns the transcript whose session was active last: by the
// last timestamp written in it (a copied file keeps them, not its
// modification time), else its modification time; at a tie, the last by
// name.
func Newest(files []string) string {
	best, bestMs := "", int64(0)
	for _, f := range files {
		ms := lastActivity(f)
		if best == "" || ms > bestMs || (ms == bestMs && f > best) {
			best, bestMs = f, ms
		}
	}
	return best
}

// lastActivity is the last timestamp in the end of transcript f, in Unix
// ms, or its modification time without one (0 when it cannot be read).
func lastActivity(f string) int64 {
	file, err := os.Open(f)
	if err != nil {
		return 0
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return 0
	}
	from := max(st.Size()-tailSize, 0)
	buf := make([]byte, st.Size()-from)
	if _, err := file.ReadAt(buf, from); err != nil && err != io.EOF {
		return st.ModTime().UnixMilli()
	}
	lines := bytes.Split(buf, []byte("\n"))
	if from > 0 {
		lines = lines[1:] // the first is cut
	}
	for i := len(lines) - 1; i >= 0; i-- {
		l := line{raw: bytes.TrimSpace(lines[i])}
		if len(l.raw) == 0 {
			continue
		}
		if ms, ok, bad := readHead(&l); ok && bad == "" {
			return ms
		}
	}
	return st.ModTime().UnixMilli()
}
