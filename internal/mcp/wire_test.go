package mcp

import (
	"strings"
	"testing"
	"time"
)

func TestWire(t *testing.T) {
	clock := time.Unix(100, 0)
	w := newWire(func() time.Time { return clock })
	w.out([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	w.out([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a"}}`))
	w.out([]byte(`[{"jsonrpc":"2.0","id":"x","method":"tools/list"},{"jsonrpc":"2.0","id":4,"method":"tools/call"}]`))
	w.in([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)) // not watched
	w.in([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`))
	w.in([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)) // not kept
	w.in([]byte(`[{"jsonrpc":"2.0","id":2,"result":{"content":[]}},{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"m"},"result":null}]`))
	w.in([]byte(`{"jsonrpc":"2.0","id":99,"result":{}}`)) // answers nothing we sent
	got, pending := w.take()
	var kinds []string
	for _, m := range got {
		kinds = append(kinds, m.method+" "+m.id+" "+string(m.result)+string(m.err))
	}
	want := []string{
		"notifications/progress  ",
		`tools/call 2 {"content":[]}`,
		`tools/list "x" {"code":-1,"message":"m"}`,
	}
	if strings.Join(kinds, "\n") != strings.Join(want, "\n") {
		t.Errorf("took\n%s\nwant\n%s", strings.Join(kinds, "\n"), strings.Join(want, "\n"))
	}
	if got[1].request == nil || !strings.Contains(string(got[1].request), `"name":"a"`) {
		t.Errorf("the answer to 2 carries request %s", got[1].request)
	}
	if len(pending) != 1 || pending[0].id != "4" {
		t.Errorf("pending %+v, want request 4", pending)
	}
	w.in([]byte(`{"jsonrpc":"2.0","id":4,"result":{}}`)) // too late: forgotten
	if got, pending := w.take(); len(got)+len(pending) != 0 {
		t.Errorf("after take: %d got, %d pending", len(got), len(pending))
	}
	w.in([]byte("Server started on stdout"))
	if got := w.notJSON(); !strings.Contains(got, `"Server started on stdout"`) {
		t.Errorf("notJSON() = %q", got)
	}
}

func TestSSETap(t *testing.T) {
	w := newWire(time.Now)
	w.out([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`))
	b := &bodyTap{wire: w}
	b.lines.fn = b.sseLine
	stream := "event: endpoint\ndata: /message?sessionId=1\n\n" +
		": keep-alive\n\n" +
		"id: 1\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"notifications/progress\",\"params\":{}}\r\n\r\n" +
		"data:{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"ok\":true}}\n\n"
	// Fed in small pieces, as a network would.
	for i := 0; i < len(stream); i += 5 {
		b.lines.feed([]byte(stream[i:min(i+5, len(stream))]))
	}
	got, _ := w.take()
	if len(got) != 2 || got[0].method != methodProgress || string(got[1].result) != `{"ok":true}` {
		t.Errorf("took %+v, want the progress and the result", got)
	}
	if w.notJSON() != "" {
		t.Errorf("the endpoint event was taken for a message: %s", w.notJSON())
	}
}

func TestStderrTail(t *testing.T) {
	var tail stderrTail
	for i := range 15 {
		tail.Write([]byte(strings.Repeat("x", i) + "\n"))
	}
	tail.Write([]byte("\n  \nlast line without newline"))
	got := tail.quote()
	if !strings.HasPrefix(got, "; stderr: xxxxx | ") || !strings.HasSuffix(got, "| last line without newline") {
		t.Errorf("quote() = %q", got)
	}
	if n := strings.Count(got, "|"); n != stderrLines {
		t.Errorf("quote() has %d lines, want %d", n+1, stderrLines+1)
	}
	var empty stderrTail
	if got := empty.quote(); got != "" {
		t.Errorf("empty quote() = %q", got)
	}
	long := stderrTail{}
	long.Write([]byte(strings.Repeat("y", 2*stderrLineSize) + "\n"))
	if got := long.quote(); len(got) != len("; stderr: ")+stderrLineSize {
		t.Errorf("a long line is quoted in %d bytes", len(got))
	}
}

// instant is a server that answers a tools/call the moment it is written,
// before the write returns: a fast stdio server can.
type instant struct{ w *wire }

func (s instant) Write(p []byte) (int, error) {
	s.w.in([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown tool"}}`))
	return len(p), nil
}

func (instant) Close() error { return nil }

// TestTapBeforeWrite: a request is known to the wire before it reaches the
// server, so that an answer faster than the write's return is kept.
func TestTapBeforeWrite(t *testing.T) {
	w := newWire(time.Now)
	tw := &tapWriter{w: instant{w}, tap: lineTap{fn: w.out}}
	if _, err := tw.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	got, pending := w.take()
	if len(got) != 1 || got[0].err == nil || len(pending) != 0 {
		t.Errorf("took %d answers (%+v), %d pending; want the error answering the call", len(got), got, len(pending))
	}
}
