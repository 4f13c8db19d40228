// Command streamserver is a synthetic AG-UI agent for benchmarks: it
// answers POST /agent with a stream whose shape the last user message
// names, so that Ananke, a bare Go consumer and the official client can be
// measured on the same bytes.
//
//	text:N:S          N TEXT_MESSAGE_CONTENT deltas of S bytes
//	tools:N:S:K       the same, then K tool calls (start, args, end, result)
//
// Every stream is RUN_STARTED, a text message, the tool calls, RUN_FINISHED
// (with the usage a model would report),
// with the input's threadId and runId echoed. It prints "listening on
// http://127.0.0.1:PORT" once it accepts connections.
//
//	go run ./bench/streamserver -addr 127.0.0.1:0
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "host:port to listen on (port 0 picks a free port)")
	flag.Parse()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on http://%s\n", l.Addr())
	log.Fatal(http.Serve(l, http.HandlerFunc(serve)))
}

// Shape is what one stream holds.
type Shape struct {
	Deltas, Size, Tools int
}

// ParseShape reads "text:N:S" or "tools:N:S:K".
func ParseShape(s string) (Shape, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	nums := make([]int, 0, 3)
	for _, p := range parts[1:] {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return Shape{}, fmt.Errorf("shape %q: %q is not a count", s, p)
		}
		nums = append(nums, n)
	}
	switch {
	case parts[0] == "text" && len(nums) == 2:
		return Shape{Deltas: nums[0], Size: nums[1]}, nil
	case parts[0] == "tools" && len(nums) == 3:
		return Shape{Deltas: nums[0], Size: nums[1], Tools: nums[2]}, nil
	}
	return Shape{}, fmt.Errorf("shape %q: want text:N:S or tools:N:S:K", s)
}

type input struct {
	ThreadID string `json:"threadId"`
	RunID    string `json:"runId"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func serve(w http.ResponseWriter, r *http.Request) {
	var in input
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	last := ""
	for _, m := range in.Messages {
		if m.Role == "user" {
			_ = json.Unmarshal(m.Content, &last)
		}
	}
	shape, err := ParseShape(last)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	bw := bufio.NewWriterSize(w, 64<<10)
	Write(bw, in.ThreadID, in.RunID, shape)
	_ = bw.Flush()
}

// Write writes the stream of a shape.
func Write(w *bufio.Writer, thread, run string, s Shape) {
	ids := fmt.Sprintf(`"threadId":%q,"runId":%q`, thread, run)
	frame := func(event string) {
		w.WriteString("data: ")
		w.WriteString(event)
		w.WriteString("\n\n")
	}
	frame(`{"type":"RUN_STARTED",` + ids + `}`)
	frame(`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`)
	delta := `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"` + payload(s.Size) + `"}`
	for range s.Deltas {
		frame(delta)
	}
	frame(`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`)
	for i := range s.Tools {
		id := "c" + strconv.Itoa(i+1)
		frame(`{"type":"TOOL_CALL_START","toolCallId":"` + id + `","toolCallName":"lookup","parentMessageId":"m1"}`)
		frame(`{"type":"TOOL_CALL_ARGS","toolCallId":"` + id + `","delta":"{\"id\":` + strconv.Itoa(i+1) + `}"}`)
		frame(`{"type":"TOOL_CALL_END","toolCallId":"` + id + `"}`)
		frame(`{"type":"TOOL_CALL_RESULT","messageId":"r` + id + `","toolCallId":"` + id + `","content":"{\"ok\":true,\"id\":` + strconv.Itoa(i+1) + `}"}`)
	}
	// The usage a model's run reports, so the benchmark measures reading it.
	frame(`{"type":"RUN_FINISHED",` + ids + `,"usage":[{"provider":"bench","model":"bench-1","inputTokens":1200,"outputTokens":` + strconv.Itoa(s.Deltas*s.Size/4) + `}]}`)
}

// payload is s bytes of plain text that needs no JSON escaping.
func payload(s int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 "
	b := make([]byte, s)
	for i := range b {
		b[i] = alphabet[i%len(alphabet)]
	}
	return string(b)
}
