package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/diag"
)

// maxProblems is how many problems of one recording file are reported.
const maxProblems = 10

// recording is one test's recording as read.
type recording struct {
	file      string
	test      string
	exchanges []recorded
}

// recorded is an exchange as read, with its request's fingerprint.
type recorded struct {
	Exchange
	line int
	norm map[string]any
	fp   string
}

// parseRecording reads a recording file from r: every problem is
// reported at its line (and column, for JSON syntax), at most
// maxProblems of them. ignore is the run's gateway.ignore.
func parseRecording(file string, r io.Reader, ignore []string) (*recording, diag.Diagnostics) {
	var diags diag.Diagnostics
	rec := &recording{file: file}
	at := func(line, col int) diag.Pos { return diag.Pos{File: file, Line: line, Col: col} }
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			if err != io.EOF {
				diags.Add(at(n, 1), "cannot read the recording: %v", err)
			} else if n == 1 {
				diags.Add(at(1, 1), "the recording is empty; its first line is the header {\"format\":%q,\"test\":…}", Format)
			}
			break
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		var col int
		var msg string
		if n == 1 {
			col, msg = rec.readHeader(line)
		} else {
			var e recorded
			if col, msg = readExchange(line, &e); msg == "" {
				e.line = n
				e.fp = fingerprint(e.norm)
				rec.exchanges = append(rec.exchanges, e)
			}
		}
		if msg != "" {
			if len(diags) == maxProblems {
				diags.Add(at(n, 1), "more problems after this line are not shown")
				break
			}
			diags.Add(at(n, col), "%s", msg)
		}
		if err != nil {
			break
		}
	}
	if diags != nil {
		return nil, diags
	}
	for i := range rec.exchanges {
		// the run's ignore list may name more fields than the recording
		// run's did
		rec.exchanges[i].norm = normalize(rec.exchanges[i].norm, ignore)
		rec.exchanges[i].fp = fingerprint(rec.exchanges[i].norm)
	}
	return rec, nil
}

// readHeader reads the first line; it returns a column and a message
// when it is not a header.
func (rec *recording) readHeader(line []byte) (int, string) {
	var h header
	if col, msg := strictJSON(line, &h); msg != "" {
		return col, "the first line is not a recording header {\"format\":\"" + Format + "\",\"test\":…}: " + msg
	}
	switch {
	case h.Format == "":
		return 1, fmt.Sprintf("the header names no format; a recording starts with {\"format\":%q,\"test\":…}", Format)
	case strings.HasPrefix(h.Format, "ananke.gateway/") && h.Format != Format:
		return 1, fmt.Sprintf("format %q is not one this Ananke reads (%s); record again", h.Format, Format)
	case h.Format != Format:
		return 1, fmt.Sprintf("not a gateway recording: its format is %q, not %q", h.Format, Format)
	case h.Test == "":
		return 1, "the header names no test"
	}
	rec.test = h.Test
	return 0, ""
}

// readExchange reads one exchange line into e (its request parsed and
// normalised with no ignore list); it returns a column and a message
// when the line is not an exchange.
func readExchange(line []byte, e *recorded) (int, string) {
	if len(bytes.TrimSpace(line)) == 0 {
		return 1, "the line is blank; each line after the header is one exchange"
	}
	if col, msg := strictJSON(line, &e.Exchange); msg != "" {
		return col, "the exchange is not valid: " + msg
	}
	x := &e.Exchange
	if x.Request == nil {
		return 1, "the exchange has no request"
	}
	req, err := parseRequest(x.Request)
	if err != nil {
		return 1, "the exchange's request: " + strings.TrimPrefix(err.Error(), "the request body ")
	}
	e.norm = normalize(req, nil)
	switch {
	case x.Attempt < 1:
		return 1, fmt.Sprintf("the exchange's attempt is %d; attempts count from 1", x.Attempt)
	case x.Turn < 0:
		return 1, fmt.Sprintf("the exchange's turn is %d; turns count from 0", x.Turn)
	case x.Status < 100 || x.Status > 599:
		return 1, fmt.Sprintf("the exchange's status %d is not an HTTP status", x.Status)
	case x.Stream && x.Body != nil:
		return 1, "a streamed exchange has chunks, not a body"
	case !x.Stream && (x.Chunks != nil || x.Done):
		return 1, "an exchange that is not streamed has a body, not chunks or done"
	case !x.Stream && x.Body == nil:
		return 1, "the exchange has no body"
	}
	if msg := keptValue(x.Body); x.Body != nil && msg != "" {
		return 1, "the exchange's body " + msg
	}
	for i, c := range x.Chunks {
		if msg := keptValue(c); msg != "" {
			return 1, fmt.Sprintf("the exchange's chunk %d %s", i, msg)
		}
	}
	return 0, ""
}

// keptValue checks a kept payload: an object, an array or a string.
func keptValue(raw json.RawMessage) string {
	switch t := bytes.TrimSpace(raw); {
	case len(t) > 0 && (t[0] == '{' || t[0] == '[' || t[0] == '"'):
		return ""
	default:
		return "must be a JSON object, array or string, not " + string(t)
	}
}

// strictJSON decodes one JSON object into v, refusing unknown fields;
// it returns the column of a syntax error and a message.
func strictJSON(line []byte, v any) (int, string) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			return 1, "more than one JSON value on the line"
		}
		return 0, ""
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return column(line, syn.Offset), "invalid JSON: " + syn.Error()
	case errors.As(err, &typ):
		return column(line, typ.Offset), fmt.Sprintf("%s must be %s, not %s", fieldName(typ.Field), typ.Type, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return utf8.RuneCount(line) + 1, "the line ends in the middle of its JSON (a cut-off file?)"
	}
	return 1, strings.TrimPrefix(err.Error(), "json: ")
}

// fieldName names a JSON field for a message.
func fieldName(f string) string {
	if f == "" {
		return "the line"
	}
	return "field " + f
}

// column is the 1-based column, in characters, of byte offset off:
// the character before it, where the decoder stopped.
func column(line []byte, off int64) int {
	if off < 1 {
		return 1
	}
	if off > int64(len(line)) {
		off = int64(len(line))
	}
	return utf8.RuneCount(line[:off-1]) + 1
}
