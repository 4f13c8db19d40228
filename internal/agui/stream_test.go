package agui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/golden"
)

var replayInput = agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}

// summarize renders what the client delivered and reported, one line each.
func summarize(evs []agui.Event, res *agui.Result, err error) string {
	var b strings.Builder
	for _, ev := range evs {
		b.WriteString(describe(ev))
		b.WriteByte('\n')
	}
	b.WriteString("--\n")
	for _, p := range res.Problems {
		must := ""
		if p.Must {
			must = " must"
		}
		fmt.Fprintf(&b, "%s%s %s\n", p.Severity, must, p)
	}
	msgs, _ := json.Marshal(res.Messages)
	fmt.Fprintf(&b, "--\nmessages %s\nstate %s\n", msgs, res.State)
	for _, c := range res.Pending {
		fmt.Fprintf(&b, "pending %s %s %s\n", c.ID, c.Function.Name, c.Function.Arguments)
	}
	if err != nil {
		fmt.Fprintf(&b, "error %v\n", err)
	}
	return b.String()
}

func describe(ev agui.Event) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("thread", ev.ThreadID)
	add("run", ev.RunID)
	add("msg", ev.MessageID)
	add("role", ev.Role)
	add("call", ev.ToolCallID)
	add("name", ev.ToolCallName)
	add("parent", ev.ParentMessageID)
	if ev.Delta != "" {
		parts = append(parts, fmt.Sprintf("delta=%q", ev.Delta))
	}
	add("content", string(ev.Content))
	synth := ""
	if ev.Synthetic {
		synth = " (synthetic)"
	}
	return ev.Type + synth + " " + strings.Join(parts, " ")
}

func replay(t *testing.T, c *agui.Client, body []byte) string {
	t.Helper()
	var evs []agui.Event
	res, err := c.ReadStream(context.Background(), bytes.NewReader(body), replayInput, func(_ agui.Frame, got []agui.Event, _ []agui.Problem) {
		evs = append(evs, got...)
	})
	return summarize(evs, res, err)
}

// TestRecordedStreams replays testdata/streams/*.sse through the client and
// compares everything it delivered and reported with the goldens.
func TestRecordedStreams(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "streams", "*.sse"))
	if len(files) < 14 {
		t.Fatalf("found %d streams", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, strings.TrimSuffix(f, ".sse")+".golden", replay(t, &agui.Client{}, body))
		})
	}
}

// TestFramingVariants: LF, CRLF, CR, "data:" without a space, a BOM and
// comment/field lines all deliver the same events; non-LF framing is
// flagged because the official TypeScript client cannot read it.
func TestFramingVariants(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "streams", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	events := func(s string) string { return s[:strings.Index(s, "--\n")] }
	want := replay(t, &agui.Client{}, read("lf.sse"))
	if strings.Contains(want, "warning") || strings.Contains(want, "error") {
		t.Fatalf("the LF stream has problems:\n%s", want)
	}
	for _, name := range []string{"crlf.sse", "cr.sse", "nospace.sse", "bom.sse", "comments.sse"} {
		got := replay(t, &agui.Client{}, read(name))
		if events(got) != events(want) {
			t.Errorf("%s delivered\n%s\nwant\n%s", name, events(got), events(want))
		}
		flagged := strings.Contains(got, "(framing)")
		if wantFlag := name == "crlf.sse" || name == "cr.sse"; flagged != wantFlag {
			t.Errorf("%s: framing flagged = %v; want %v\n%s", name, flagged, wantFlag, got)
		}
	}
}

// TestHugeEvent: an event far over go-sse's 64 KiB default is read whole,
// and one over the configured limit is a clear transport error.
func TestHugeEvent(t *testing.T) {
	big := strings.Repeat("x", 200<<10)
	body := fmt.Sprintf("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"+
		"data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"dump\"}\n\n"+
		"data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"blob\\\":\\\"%s\\\"}\"}\n\n"+
		"data: {\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"}\n\n"+
		"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n", big)
	res, err := (&agui.Client{}).ReadStream(context.Background(), strings.NewReader(body), replayInput, nil)
	if err != nil || res.Failed() {
		t.Fatalf("ReadStream = %v, problems %v", err, res.Problems)
	}
	if args := res.Messages[0].ToolCalls[0].Function.Arguments; len(args) != len(big)+11 {
		t.Errorf("arguments have %d bytes; want %d", len(args), len(big)+11)
	}
	_, err = (&agui.Client{MaxEventSize: 64 << 10}).ReadStream(context.Background(), strings.NewReader(body), replayInput, nil)
	var te *agui.TransportError
	if !errors.As(err, &te) || te.Op != "event-size" || !strings.Contains(err.Error(), "larger than the limit of 64 KiB (raise target.max_event_bytes)") {
		t.Errorf("over the limit: %v", err)
	}
}

// TestKeptPartsOutliveTheBuffer: the reader reuses its buffer from event
// to event; what the run keeps of an event — a state snapshot, a tool
// result, the messages of a snapshot — still reads as received after a
// thousand events have been read through the same buffer.
func TestKeptPartsOutliveTheBuffer(t *testing.T) {
	var b strings.Builder
	frame := func(e string) { b.WriteString("data: " + e + "\n\n") }
	frame(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`)
	frame(`{"type":"STATE_SNAPSHOT","snapshot":{"cart":["book"],"total":12}}`)
	frame(`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"lookup"}`)
	frame(`{"type":"TOOL_CALL_END","toolCallId":"c1"}`)
	frame(`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":"{\"stock\":3}"}`)
	frame(`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`)
	for i := range 1000 {
		frame(fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"%s"}`, strings.Repeat(string(rune('a'+i%26)), 40)))
	}
	frame(`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`)
	frame(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`)
	res, err := (&agui.Client{}).ReadStream(context.Background(), strings.NewReader(b.String()), replayInput, nil)
	if err != nil || res.Failed() {
		t.Fatalf("ReadStream = %v, problems %v", err, res.Problems)
	}
	if got := string(res.State); got != `{"cart":["book"],"total":12}` {
		t.Errorf("state = %s; want the snapshot as sent", got)
	}
	var result string
	for _, m := range res.Messages {
		if m.Role == agui.RoleTool {
			result = string(m.Content)
		}
	}
	if result != `"{\"stock\":3}"` {
		t.Errorf("tool result = %s; want it as sent", result)
	}
}
