package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// b64 encodes s as a content part's base64 value.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// dataPart is a 1.0 file part with an inline source; filename "" leaves
// the metadata out.
func dataPart(typ, mimeType, value, filename string) string {
	part := map[string]any{"type": typ, "source": map[string]string{"type": "data", "value": value, "mimeType": mimeType}}
	if filename != "" {
		part["metadata"] = map[string]string{"filename": filename}
	}
	return mustJSON(part)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// partsMsg is a user message whose content is the given parts.
func partsMsg(id string, parts ...string) Message {
	return Message{ID: id, Role: "user", Content: json.RawMessage("[" + strings.Join(parts, ",") + "]")}
}

const (
	askReceipt = `{"type":"text","text":"What's in this receipt?"}`
	receiptRes = `{"total":85.5,"currency":"USD"}`
	// pngBytes stands in for an image: only its length is reported.
	pngBytes = "\x89PNG\r\n\x1a\n0123456789"
)

// TestAttachments sends user messages with files, as 1.0 content parts
// and as legacy binary parts, and checks the calls, the answer and how
// the run ends.
func TestAttachments(t *testing.T) {
	srv := newTestServer(t)
	long := strings.Repeat("word ", 60) // 300 runes before trimming
	tests := []struct {
		name      string
		messages  []Message
		wantCalls []wantCall
		wantTexts []string
		wantError string // RUN_ERROR message part; RUN_FINISHED when empty
	}{
		{
			name:      "image",
			messages:  []Message{partsMsg("u1", `{"type":"text","text":"What is this?"}`, dataPart("image", "image/png", b64(pngBytes), "photo.png"))},
			wantTexts: []string{"Received photo.png (image/png, 18 bytes)."},
		},
		{
			name:      "document with an amount",
			messages:  []Message{partsMsg("u1", askReceipt, dataPart("document", "text/plain", b64("Total: $85.50"), "receipt.txt"))},
			wantCalls: []wantCall{{"read_receipt", `{"filename":"receipt.txt","total":85.5}`, receiptRes}},
			wantTexts: []string{`Received receipt.txt (text/plain, 13 bytes). It says: "Total: $85.50"`},
		},
		{
			name: "document without an amount or filename",
			messages: []Message{partsMsg("u1",
				dataPart("document", "text/markdown; charset=utf-8", b64("# Notes\n\n  buy   milk\t"), ""))},
			wantTexts: []string{`Received an attachment (text/markdown; charset=utf-8, 22 bytes). It says: "# Notes buy milk"`},
		},
		{
			name:      "long text is cut",
			messages:  []Message{partsMsg("u1", dataPart("document", "text/plain", b64(long), "long.txt"))},
			wantTexts: []string{`Received long.txt (text/plain, 300 bytes). It says: "` + strings.TrimSpace(long[:200]) + `"`},
		},
		{
			name: "legacy binary",
			messages: []Message{partsMsg("u1", askReceipt,
				`{"type":"binary","mimeType":"text/plain","data":"`+b64("Coffee $4.50\nTOTAL 1,204.50")+`","filename":"receipt.txt"}`)},
			wantCalls: []wantCall{{"read_receipt", `{"filename":"receipt.txt","total":1204.5}`, `{"total":1204.5,"currency":"USD"}`}},
			wantTexts: []string{`Received receipt.txt (text/plain, 27 bytes). It says: "Coffee $4.50 TOTAL 1,204.50"`},
		},
		{
			name:      "legacy binary image without filename",
			messages:  []Message{partsMsg("u1", `{"type":"binary","mimeType":"image/png","data":"`+b64(pngBytes)+`"}`)},
			wantTexts: []string{"Received an attachment (image/png, 18 bytes)."},
		},
		{
			name: "url sources",
			messages: []Message{partsMsg("u1",
				`{"type":"image","source":{"type":"url","value":"https://example.com/cat.jpg"}}`,
				`{"type":"document","source":{"type":"url","value":"https://example.com/r.pdf","mimeType":"application/pdf"},"metadata":{"filename":"r.pdf"}}`,
				`{"type":"binary","mimeType":"text/plain","url":"https://example.com/total.txt"}`)},
			wantTexts: []string{"Received https://example.com/cat.jpg (unknown type, by URL). " +
				"Received r.pdf (application/pdf, by URL). " +
				"Received https://example.com/total.txt (text/plain, by URL)."},
		},
		{
			name: "two receipts and a json file",
			messages: []Message{partsMsg("u1",
				dataPart("document", "text/plain", b64("Total: 85.50"), "a.txt"),
				dataPart("image", "image/png", b64(pngBytes), ""),
				dataPart("document", "application/json", b64(`{"paid": "$12"}`), "b.json"))},
			wantCalls: []wantCall{
				{"read_receipt", `{"filename":"a.txt","total":85.5}`, receiptRes},
				{"read_receipt", `{"filename":"b.json","total":12}`, `{"total":12,"currency":"USD"}`},
			},
			wantTexts: []string{`Received a.txt (text/plain, 12 bytes). It says: "Total: 85.50" ` +
				`Received an attachment (image/png, 18 bytes). ` +
				`Received b.json (application/json, 15 bytes). It says: "{"paid": "$12"}"`},
		},
		{
			name:      "invalid base64",
			messages:  []Message{partsMsg("u1", askReceipt, dataPart("document", "text/plain", "not base64!", "receipt.txt"))},
			wantError: `attachment 2 (document part) of message "u1": invalid base64 data`,
		},
		{
			name:      "no source",
			messages:  []Message{partsMsg("u1", `{"type":"image"}`)},
			wantError: `attachment 1 (image part) of message "u1": no source`,
		},
		{
			name: "text parts only",
			messages: []Message{partsMsg("u1",
				`{"type":"text","text":"What's the weather in "}`, `{"type":"text","text":"London?"}`)},
			wantCalls: []wantCall{{"get_weather", `{"city":"London"}`, `{"city":"London","temp_c":14,"conditions":"rainy"}`}},
			wantTexts: []string{"It is rainy and 14°C in London."},
		},
		{
			name: "files in an earlier message",
			messages: []Message{
				partsMsg("u1", dataPart("image", "image/png", b64(pngBytes), "photo.png")),
				msg("a1", "assistant", "Received photo.png (image/png, 18 bytes)."),
				msg("u2", "user", "And the weather?"),
			},
			wantCalls: []wantCall{{"get_weather", `{"city":"Paris"}`, `{"city":"Paris","temp_c":21,"conditions":"sunny"}`}},
			wantTexts: []string{"It is sunny and 21°C in Paris."},
		},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := RunAgentInput{ThreadID: "thread-1", RunID: fmt.Sprintf("run-%d", i), Messages: tc.messages}
			events := postRun(t, srv, in)
			calls, texts := capture(events)
			checkCalls(t, calls, tc.wantCalls)
			if !reflect.DeepEqual(texts, tc.wantTexts) {
				t.Errorf("texts = %q\nwant    %q", texts, tc.wantTexts)
			}
			last := events[len(events)-1]
			switch {
			case tc.wantError == "" && last.Type != "RUN_FINISHED":
				t.Errorf("last event = %+v, want RUN_FINISHED", last)
			case tc.wantError != "" && (last.Type != "RUN_ERROR" || last.Code != "invalid_attachment" ||
				!strings.Contains(last.Message, tc.wantError)):
				t.Errorf("last event = %+v, want RUN_ERROR invalid_attachment %q", last, tc.wantError)
			}
		})
	}
}

// TestReceiptSequence pins the events of a receipt: the tool call and its
// result come before the answer, which is a separate message.
func TestReceiptSequence(t *testing.T) {
	in := RunAgentInput{ThreadID: "t", RunID: "r", Messages: []Message{
		partsMsg("u1", askReceipt, dataPart("document", "text/plain", b64("Total: $85.50"), "receipt.txt")),
	}}
	events := postRun(t, newTestServer(t), in)
	var got []string
	for _, e := range events {
		if e.Type != "TOOL_CALL_ARGS" && e.Type != "TEXT_MESSAGE_CONTENT" {
			got = append(got, strings.TrimSpace(e.Type+" "+strings.TrimPrefix(e.ToolCallID+e.MessageID, "r-")))
		}
	}
	want := []string{
		"RUN_STARTED", "STATE_SNAPSHOT",
		"TOOL_CALL_START call-1", "TOOL_CALL_END call-1", "TOOL_CALL_RESULT call-1r-result-1",
		"TEXT_MESSAGE_START msg-2", "TEXT_MESSAGE_END msg-2",
		"RUN_FINISHED",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events =\n%q\nwant\n%q", got, want)
	}
	if start := events[2]; start.ParentMessageID != "r-msg-1" {
		t.Errorf("parentMessageId = %q, want r-msg-1", start.ParentMessageID)
	}
}

func TestAmountIn(t *testing.T) {
	tests := []struct {
		text   string
		want   float64
		wantOK bool
	}{
		{"Total: $85.50", 85.5, true},
		{"Total: 85.50", 85.5, true},
		{"TOTAL 12", 12, true},
		{"total:$ 3.10", 3.1, true},
		{"$85.50", 85.5, true},
		{"Coffee $4.50\nTotal: $9.00", 9, true},
		{"Subtotal: 80.00\nTax $5.50", 5.5, true},
		{"Paid $1,204.50 in cash", 1204.5, true},
		{"Subtotal: 80.00", 0, false},
		{"85.50", 0, false},
		{"the total is unknown", 0, false},
		{"", 0, false},
	}
	for _, tc := range tests {
		got, ok := amountIn(tc.text)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("amountIn(%q) = %v, %v; want %v, %v", tc.text, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ text, want string }{
		{"  a\n\n b\tc  ", "a b c"},
		{"", ""},
		{strings.Repeat("é", 250), strings.Repeat("é", 200)},
		{"\xff ok", "\xff ok"}, // quote does not repair UTF-8; attachment.text does
	}
	for _, tc := range tests {
		if got := quote(tc.text); got != tc.want {
			t.Errorf("quote(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestIsTextType(t *testing.T) {
	tests := []struct {
		mimeType string
		want     bool
	}{
		{"text/plain", true},
		{"Text/CSV; charset=utf-8", true},
		{"application/json", true},
		{"application/pdf", false},
		{"image/png", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := isTextType(tc.mimeType); got != tc.want {
			t.Errorf("isTextType(%q) = %v, want %v", tc.mimeType, got, tc.want)
		}
	}
}
