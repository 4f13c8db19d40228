// Package format holds the small presentation rules every human-readable
// reporter shares, so that a duration or a shortened id reads the same in
// the terminal, the PR comment and the JUnit file.
package format

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Duration renders milliseconds as test runners do: 420ms, 1.7s, 2m5s.
func Duration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", ms)
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// Short shortens s to n characters, ending with "…".
func Short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// ShortID keeps the end of a long id, where generated ids differ.
func ShortID(id string) string {
	if r := []rune(id); len(r) > 16 {
		return "…" + string(r[len(r)-12:])
	}
	return id
}

// OneLine shows s on one line (newlines as ⏎), shortened to n characters;
// an empty s shows as "".
func OneLine(s string, n int) string {
	if s == "" {
		return `""`
	}
	return Short(strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎").Replace(s), n)
}

// Bytes is a size for people: "512 B", "2.1 KiB", "3.0 MiB".
func Bytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// Origins lists where imported events were read, at most max of them, each
// file named once: "s.jsonl:12, :15, t.jsonl:3 (and 4 more)".
func Origins(origins []string, max int) string {
	var b strings.Builder
	last := ""
	for i, o := range origins {
		if i == max {
			fmt.Fprintf(&b, " (and %d more)", len(origins)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		file, line, ok := cutLine(o)
		if ok && file == last {
			b.WriteString(":" + line)
			continue
		}
		b.WriteString(o)
		last = file
	}
	return b.String()
}

// cutLine splits "file:line" at its last colon.
func cutLine(o string) (file, line string, ok bool) {
	i := strings.LastIndexByte(o, ':')
	if i < 0 {
		return o, "", false
	}
	return o[:i], o[i+1:], true
}
