package gateway

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	goodHeader   = `{"format":"ananke.gateway/v1","test":"t"}`
	goodExchange = `{"attempt":1,"turn":0,"request":{"model":"m","messages":[]},"status":200,"stream":false,"body":{"id":"x"}}`
)

// TestCorruptRecording: every problem of a recording is reported at its
// line (and column, for JSON syntax), when the gateway opens the
// recordings.
func TestCorruptRecording(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"empty", "", []string{`1:1: the recording is empty; its first line is the header {"format":"ananke.gateway/v1","test":…}`}},
		{"not a header", `{"format":"ananke.gateway/v1","tset":"t"}` + "\n", []string{`1:1: the first line is not a recording header {"format":"ananke.gateway/v1","test":…}: unknown field "tset"`}},
		{"another format", `{"format":"har/1.2","test":"t"}`, []string{`1:1: not a gateway recording: its format is "har/1.2", not "ananke.gateway/v1"`}},
		{"a newer version", `{"format":"ananke.gateway/v2","test":"t"}`, []string{`1:1: format "ananke.gateway/v2" is not one this Ananke reads (ananke.gateway/v1); record again`}},
		{"no test", `{"format":"ananke.gateway/v1"}`, []string{`1:1: the header names no test`}},
		{"every bad line", goodHeader + "\n" +
			goodExchange + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"body":{"id":` + "\n" +
			"\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":"200","stream":false,"body":{}}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":true,"body":{}}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"chunks":[]}` + "\n" +
			`{"attempt":0,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"body":{}}` + "\n" +
			`{"attempt":1,"turn":-1,"request":{"model":"m"},"status":200,"stream":false,"body":{}}` + "\n" +
			`{"attempt":1,"turn":0,"request":[1],"status":200,"stream":false,"body":{}}` + "\n" +
			`{"attempt":1,"turn":0,"status":200,"stream":false,"body":{}}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":99,"stream":false,"body":{}}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"body":{},"extra":1}` + "\n",
			[]string{
				`3:88: the exchange is not valid: the line ends in the middle of its JSON (a cut-off file?)`,
				`4:1: the line is blank; each line after the header is one exchange`,
				`5:60: the exchange is not valid: field status must be int, not string`,
				`6:1: a streamed exchange has chunks, not a body`,
				`7:1: an exchange that is not streamed has a body, not chunks or done`,
				`8:1: the exchange's attempt is 0; attempts count from 1`,
				`9:1: the exchange's turn is -1; turns count from 0`,
				`10:1: the exchange's request: is not a JSON object`,
				`11:1: the exchange has no request`,
				`12:1: the exchange's status 99 is not an HTTP status`,
				`13:1: more problems after this line are not shown`,
			}},
		{"more bad lines", goodHeader + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":true,"chunks":[{},3]}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"body":{}} {}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"body":{},"extra":1}` + "\n" +
			`{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"body":null}` + "\n",
			[]string{
				`2:1: the exchange's chunk 1 must be a JSON object, array or string, not 3`,
				`3:1: the exchange has no body`,
				`4:1: the exchange is not valid: more than one JSON value on the line`,
				`5:1: the exchange is not valid: unknown field "extra"`,
				`6:1: the exchange's body must be a JSON object, array or string, not null`,
			}},
		{"a bad character", goodHeader + "\n" + `{"attempt":1,"turn":0,"request":{"model":"m"},"status":200,"stream":false,"body":{"é":é}}`,
			[]string{`2:87: the exchange is not valid: invalid JSON: invalid character 'Ã' looking for beginning of value`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseRecording("r.jsonl", strings.NewReader(tc.src), nil)
			var got []string
			for _, d := range diags {
				got = append(got, strings.TrimPrefix(d.String(), "r.jsonl:"))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestOpenCorrupt: New reports a corrupt recording, and a test recorded
// twice, at its file:line:col; other files are read.
func TestOpenCorrupt(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.jsonl":     goodHeader + "\n" + goodExchange + "\n",
		"b.jsonl":     goodHeader + "\n",
		"c.jsonl":     goodHeader + "\n" + goodExchange[:40] + "\n",
		"notes.txt":   "not a recording",
		"crlf.jsonl":  strings.ReplaceAll(`{"format":"ananke.gateway/v1","test":"u"}`+"\n"+goodExchange+"\n", "\n", "\r\n"),
		"other.jsonl": `{"format":"ananke.gateway/v1","test":"v"}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := New(Options{Mode: Replay, Dir: dir, Board: newRig(t, Options{Mode: Replay, Dir: dir + "/../"}).board})
	want := filepath.Join(dir, "b.jsonl") + `:1:1: test "t" is recorded in ` + filepath.Join(dir, "a.jsonl") + " already; keep one of the two files\n" +
		filepath.Join(dir, "c.jsonl") + ":2:41: the exchange is not valid: the line ends in the middle of its JSON (a cut-off file?)"
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
	os.Remove(filepath.Join(dir, "b.jsonl"))
	os.Remove(filepath.Join(dir, "c.jsonl"))
	g, err := New(Options{Mode: Replay, Dir: dir, Board: newRig(t, Options{Mode: Replay, Dir: dir}).board})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.recordings) != 3 || len(g.recordings["u"].exchanges) != 1 {
		t.Errorf("recordings %v", g.recordings)
	}
}

// TestFileName: a file name safe anywhere, distinct for distinct ids.
func TestFileName(t *testing.T) {
	seen := map[string]string{}
	for _, id := range []string{"tests/checkout", "tests_checkout", "Tests/Checkout", "tests/checkout ", "../../etc/passwd", ".hidden", "données/été", strings.Repeat("x", 300), "a:b*c?d|e<f>g\"h\\i"} {
		name := FileName(id)
		if prev, ok := seen[strings.ToLower(name)]; ok {
			t.Errorf("%q and %q share %s", prev, id, name)
		}
		seen[strings.ToLower(name)] = id
		if strings.HasPrefix(name, ".") || len(name) > 100 || strings.ContainsAny(name, `/\:*?"<>| `) || !strings.HasSuffix(name, ".jsonl") {
			t.Errorf("%q: unsafe name %q", id, name)
		}
	}
	if got := FileName("tests/checkout"); got != "tests_checkout.b5d30adf.jsonl" {
		t.Errorf("FileName(tests/checkout) = %q", got)
	}
}

// FuzzRecording: the parser never panics, and what it reads, written
// again, reads back the same.
func FuzzRecording(f *testing.F) {
	f.Add(goodHeader + "\n" + goodExchange + "\n")
	f.Add(goodHeader + "\n" + `{"attempt":2,"turn":1,"request":{"model":"m","messages":[{"role":"tool","tool_call_id":"<tool-call-1>"}]},"status":200,"stream":true,"chunks":[{"a":1},"text"],"done":true}` + "\n")
	f.Add(goodHeader + "\r\n" + `{"attempt":1,"turn":0,"request":{},"status":429,"retry_after":"2","stream":false,"body":"slow down"}`)
	f.Add("")
	f.Add("\n\n")
	f.Add(`{"format":"ananke.gateway/v1","test":"t"}` + "\n" + `{"attempt":1e400}`)
	f.Fuzz(func(t *testing.T, src string) {
		rec, diags := parseRecording("f.jsonl", strings.NewReader(src), []string{"metadata"})
		if diags != nil {
			if rec != nil {
				t.Fatal("a recording read with problems")
			}
			return
		}
		var ex []Exchange
		for _, e := range rec.exchanges {
			ex = append(ex, e.Exchange)
		}
		once := encodeRecording(rec.test, ex)
		rec2, diags := parseRecording("f.jsonl", bytes.NewReader(once), []string{"metadata"})
		if diags != nil {
			t.Fatalf("written again, it does not read:\n%s\n%v", once, diags)
		}
		var ex2 []Exchange
		for i, e := range rec2.exchanges {
			ex2 = append(ex2, e.Exchange)
			if e.fp != rec.exchanges[i].fp {
				t.Errorf("exchange %d: the fingerprint changed", i)
			}
		}
		if twice := encodeRecording(rec2.test, ex2); !bytes.Equal(once, twice) {
			t.Errorf("written twice:\n%s\n%s", once, twice)
		}
	})
}
