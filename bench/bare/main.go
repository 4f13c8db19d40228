// Command bare is the lower bound the benchmark measures Ananke against: a
// plain Go AG-UI consumer that POSTs a run, reads the SSE lines,
// json.Unmarshals each event into a map and assembles the text and the
// tool calls — no validation, no trace, no report.
//
//	bare -url http://127.0.0.1:PORT/agent -message text:1000:20 [-n 1000]
//
// It prints one JSON line: {"events", "bytes", "text_bytes", "tool_calls"}
// summed over its n runs.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
)

type stats struct {
	Events    int `json:"events"`
	Bytes     int `json:"bytes"`
	TextBytes int `json:"text_bytes"`
	ToolCalls int `json:"tool_calls"`
}

func main() {
	url := flag.String("url", "", "the agent's AG-UI endpoint")
	message := flag.String("message", "", "the user message (the stream's shape)")
	n := flag.Int("n", 1, "runs, one after another")
	flag.Parse()
	var total stats
	for i := range *n {
		s, err := run(*url, *message, i)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bare:", err)
			os.Exit(1)
		}
		total.Events += s.Events
		total.Bytes += s.Bytes
		total.TextBytes += s.TextBytes
		total.ToolCalls += s.ToolCalls
	}
	_ = json.NewEncoder(os.Stdout).Encode(total)
}

func run(url, message string, i int) (stats, error) {
	body, _ := json.Marshal(map[string]any{
		"threadId": fmt.Sprintf("t%d", i), "runId": fmt.Sprintf("r%d", i), "state": map[string]any{}, "tools": []any{}, "context": []any{},
		"forwardedProps": map[string]any{}, "messages": []any{map[string]any{"id": "u1", "role": "user", "content": message}},
	})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return stats{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return stats{}, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var s stats
	var text strings.Builder
	args := map[string]*strings.Builder{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		s.Bytes += len(line) + 1
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal(data, &ev); err != nil {
			return s, err
		}
		s.Events++
		switch ev["type"] {
		case "TEXT_MESSAGE_CONTENT":
			d, _ := ev["delta"].(string)
			text.WriteString(d)
		case "TOOL_CALL_START":
			id, _ := ev["toolCallId"].(string)
			args[id] = &strings.Builder{}
		case "TOOL_CALL_ARGS":
			id, _ := ev["toolCallId"].(string)
			d, _ := ev["delta"].(string)
			if b := args[id]; b != nil {
				b.WriteString(d)
			}
		}
	}
	s.TextBytes, s.ToolCalls = text.Len(), len(args)
	return s, sc.Err()
}
