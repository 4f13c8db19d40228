package cli

import (
	"bytes"
	"io"
	"sync"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
)

// maskedLines writes target.server's output (shown with -v) a line at a
// time with the suite's secrets masked, as every other output is: what
// the suite reads from the environment, and the config's redact patterns.
type maskedLines struct {
	mu  sync.Mutex
	w   io.Writer
	red *report.Redactor
	buf []byte
}

func newServerLog(w io.Writer, s *spec.Suite, lookupEnv func(string) (string, bool)) *maskedLines {
	return &maskedLines{w: w, red: report.ConfigRedactor(spec.EnvSecrets(s, lookupEnv), s.Config)}
}

func (m *maskedLines) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buf = append(m.buf, p...)
	for {
		i := bytes.IndexByte(m.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := m.red.String(string(m.buf[:i+1]))
		m.buf = m.buf[i+1:]
		if _, err := io.WriteString(m.w, line); err != nil {
			return len(p), err
		}
	}
}
