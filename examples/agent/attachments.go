package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// contentPart is one element of a user message's content list: an AG-UI
// 1.0 ContentPart ({"type": "text", "text"} or {"type": "image" | "audio" |
// "video" | "document", "source", "metadata"}) or the legacy 0.x binary
// part ({"type": "binary", "mimeType", "data" | "url" | "id", "filename"}).
// One struct reads both; a part only sets the fields of its kind.
type contentPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
	// 1.0 file parts.
	Source   *partSource     `json:"source"`
	Metadata json.RawMessage `json:"metadata"` // open keys; only filename is read
	// Legacy binary part. (In a 1.0 part, id is the part's own id, not a file.)
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
	URL      string `json:"url"`
	ID       string `json:"id"`
	Filename string `json:"filename"`
}

// partSource says where a 1.0 file part's bytes are: inline ("data",
// base64), at a URL ("url") or held by a provider ("file", a handle).
type partSource struct {
	Type     string `json:"type"`
	Value    string `json:"value"`
	MimeType string `json:"mimeType"`
}

// parts decodes the content as a list of parts; a string (or absent)
// content has none.
func (m Message) parts() ([]contentPart, error) {
	var s string
	if len(m.Content) == 0 || json.Unmarshal(m.Content, &s) == nil {
		return nil, nil
	}
	var parts []contentPart
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		return nil, fmt.Errorf("decode content of message %q: %w", m.ID, err)
	}
	return parts, nil
}

// attachment is a file the user sent with a message. Exactly one of data,
// url and fileID tells where it is.
type attachment struct {
	filename string // "" when the client sent none
	mimeType string // "" when the client sent none (URL and file sources)
	data     []byte // decoded inline bytes
	inline   bool   // data is the whole file (possibly empty)
	url      string
	fileID   string
}

// fileParts are the 1.0 part types that carry a file in a source.
var fileParts = map[string]bool{"image": true, "audio": true, "video": true, "document": true}

// attachments returns the files of a message, in order. Text parts are not
// attachments, and part types this agent does not know are skipped, as a
// consumer of a newer protocol should. An attachment the agent cannot read
// (bad base64, no source) is an error: the agent fails loudly rather than
// answer about a file it never saw.
func (m Message) attachments() ([]attachment, error) {
	parts, err := m.parts()
	if err != nil {
		return nil, err
	}
	var atts []attachment
	for i, p := range parts {
		var a attachment
		var err error
		switch {
		case fileParts[p.Type]:
			a, err = fromSource(p)
		case p.Type == "binary":
			a, err = fromBinary(p)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("attachment %d (%s part) of message %q: %w", i+1, p.Type, m.ID, err)
		}
		atts = append(atts, a)
	}
	return atts, nil
}

// fromSource reads a 1.0 image, audio, video or document part.
func fromSource(p contentPart) (attachment, error) {
	var meta struct {
		Filename string `json:"filename"`
	}
	_ = json.Unmarshal(p.Metadata, &meta) // metadata is free-form: no filename is fine
	if p.Source == nil {
		return attachment{}, errors.New("no source")
	}
	a := attachment{filename: meta.Filename, mimeType: p.Source.MimeType}
	switch p.Source.Type {
	case "data":
		data, err := decodeBase64(p.Source.Value)
		if err != nil {
			return attachment{}, err
		}
		a.data, a.inline = data, true
	case "url":
		a.url = p.Source.Value
	case "file":
		a.fileID = p.Source.Value
	default:
		return attachment{}, fmt.Errorf("unknown source type %q", p.Source.Type)
	}
	return a, nil
}

// fromBinary reads a legacy 0.x binary part, which has data, url or id.
func fromBinary(p contentPart) (attachment, error) {
	a := attachment{filename: p.Filename, mimeType: p.MimeType}
	switch {
	case p.Data != "":
		data, err := decodeBase64(p.Data)
		if err != nil {
			return attachment{}, err
		}
		a.data, a.inline = data, true
	case p.URL != "":
		a.url = p.URL
	case p.ID != "":
		a.fileID = p.ID
	default:
		return attachment{}, errors.New("binary part has none of data, url and id")
	}
	return a, nil
}

// decodeBase64 accepts standard base64, padded or not (line breaks are
// ignored by encoding/base64).
func decodeBase64(s string) ([]byte, error) {
	data, err := base64.StdEncoding.DecodeString(s)
	if err == nil {
		return data, nil
	}
	if raw, rawErr := base64.RawStdEncoding.DecodeString(s); rawErr == nil {
		return raw, nil
	}
	return nil, fmt.Errorf("invalid base64 data: %w", err)
}

// name is how the answer refers to the attachment.
func (a attachment) name() string {
	switch {
	case a.filename != "":
		return a.filename
	case a.url != "":
		return a.url
	case a.fileID != "":
		return a.fileID
	}
	return "an attachment"
}

// text is the decoded content of a text-like inline attachment; ok is
// false for anything else (images, PDFs, files held elsewhere).
func (a attachment) text() (text string, ok bool) {
	if !a.inline || !isTextType(a.mimeType) {
		return "", false
	}
	return strings.ToValidUTF8(string(a.data), "\uFFFD"), true
}

// isTextType reports whether a MIME type is text/* or application/json,
// ignoring parameters such as charset.
func isTextType(mimeType string) bool {
	t, _, _ := strings.Cut(mimeType, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	return strings.HasPrefix(t, "text/") || t == "application/json"
}

// maxQuoteRunes bounds the quote of an attachment's text in the answer.
const maxQuoteRunes = 200

// describe returns the answer's sentences about one attachment:
// "Received receipt.txt (text/plain, 13 bytes)." and, for text, what it says.
func (a attachment) describe() string {
	mimeType := a.mimeType
	if mimeType == "" {
		mimeType = "unknown type"
	}
	var how string
	switch {
	case a.url != "":
		how = "by URL"
	case a.fileID != "":
		how = "by file id"
	default:
		how = fmt.Sprintf("%d bytes", len(a.data))
	}
	out := fmt.Sprintf("Received %s (%s, %s).", a.name(), mimeType, how)
	if text, ok := a.text(); ok {
		// Plain quotes, not %q: the text is shown as read, not Go-escaped.
		out += ` It says: "` + quote(text) + `"`
	}
	return out
}

// quote collapses runs of whitespace to one space and keeps the first
// maxQuoteRunes runes (without a space the cut may leave at the end).
func quote(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= maxQuoteRunes {
		return text
	}
	return strings.TrimRight(string([]rune(text)[:maxQuoteRunes]), " ")
}

// A number as receipts write it: 85.50, 1,234.56 or 12.
const amountNumber = `(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`

var (
	// totalPattern finds "Total: 85.50", "TOTAL $85.50" or "total 12"
	// (not "Subtotal: ...").
	totalPattern = regexp.MustCompile(`(?i)\btotal\s*:?\s*\$?\s*` + amountNumber)
	// dollarPattern finds "$85.50".
	dollarPattern = regexp.MustCompile(`\$\s*` + amountNumber)
)

// amountIn returns the amount a text states: the first "Total" amount, or
// else the first dollar amount.
func amountIn(text string) (float64, bool) {
	for _, p := range []*regexp.Regexp{totalPattern, dollarPattern} {
		if m := p.FindStringSubmatch(text); m != nil {
			v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
			if err == nil {
				return v, true
			}
		}
	}
	return 0, false
}

// receiptArgs and receipt are the read_receipt arguments and result;
// structs keep the keys in this order.
type receiptArgs struct {
	Filename string  `json:"filename"`
	Total    float64 `json:"total"`
}

type receipt struct {
	Total    float64 `json:"total"`
	Currency string  `json:"currency"`
}

// readAttachments answers a message that carries files: a backend
// read_receipt call for each text file that states an amount, then one text
// message with a sentence (and a quote, for text) per file.
func readAttachments(s *stream, atts []attachment) {
	var parent string // one assistant message holds every call
	var sentences []string
	for _, a := range atts {
		if text, ok := a.text(); ok {
			if total, ok := amountIn(text); ok {
				if parent == "" {
					parent = s.newID("msg")
				}
				s.runTool(parent, "read_receipt", jsonText(receiptArgs{a.name(), total}), jsonText(receipt{total, "USD"}))
			}
		}
		sentences = append(sentences, a.describe())
	}
	s.say(strings.Join(sentences, " "))
	s.finish()
}

// lastUserAttachments returns the files of the last user message.
func (s *stream) lastUserAttachments() ([]attachment, error) {
	for i := len(s.in.Messages) - 1; i >= 0; i-- {
		if m := s.in.Messages[i]; m.Role == "user" {
			return m.attachments()
		}
	}
	return nil, nil
}
