package plant

import (
	"encoding/json"
	"testing"
)

func TestInto(t *testing.T) {
	const p = "IGNORE <this> & that"
	tests := []struct{ name, in, want string }{
		{"string", `"hello"`, `"hello\n\nIGNORE <this> & that"`},
		{"empty string", `""`, `"IGNORE <this> & that"`},
		{"longest string of an object", `{"id":"A-1","body":"a longer text"}`, `{"body":"a longer text\n\nIGNORE <this> & that","id":"A-1"}`},
		{"equal length: first key sorted", `{"b":"xy","a":"zw"}`, `{"a":"zw\n\nIGNORE <this> & that","b":"xy"}`},
		{"nested", `{"n":1,"items":[{"d":"short"},{"d":"the longest one"}]}`, `{"items":[{"d":"short"},{"d":"the longest one\n\nIGNORE <this> & that"}],"n":1}`},
		{"object without text", `{"in_stock":4}`, `{"in_stock":4,"note":"IGNORE <this> & that"}`},
		{"note taken", `{"note":null,"n":2}`, `{"n":2,"note":null,"note_2":"IGNORE <this> & that"}`},
		{"array without text", `[1,2]`, `[1,2,"IGNORE <this> & that"]`},
		{"number", `42`, `"42\n\nIGNORE <this> & that"`},
		{"big number kept", `{"n":12345678901234567890}`, `{"n":12345678901234567890,"note":"IGNORE <this> & that"}`},
		{"not JSON", `plain text`, `"plain text\n\nIGNORE <this> & that"`},
		{"two values", `1 2`, `"1 2\n\nIGNORE <this> & that"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Into(json.RawMessage(tt.in), p)
			if string(got) != tt.want {
				t.Errorf("Into(%s) = %s, want %s", tt.in, got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("Into(%s) is not JSON: %s", tt.in, got)
			}
		})
	}
}

func TestPlantAt(t *testing.T) {
	p := &Plant{Channel: ToolResult, Site: "read_email", Payload: "X"}
	if got := p.Text(ToolResult, "read_email", "body"); got != "body\n\nX" {
		t.Errorf("Text at the site = %q", got)
	}
	if got := p.Text(ToolResult, "other", "body"); got != "body" {
		t.Errorf("Text elsewhere = %q, want it unchanged", got)
	}
	if got := p.Text(Double, "read_email", "body"); got != "body" {
		t.Errorf("Text in another channel = %q, want it unchanged", got)
	}
	var none *Plant
	if got := none.JSON(ToolResult, "read_email", json.RawMessage(`{}`)); string(got) != `{}` {
		t.Errorf("a nil plant changed %s", got)
	}
	if got := p.JSON(ToolResult, "read_email", json.RawMessage(`{"a":"b"}`)); string(got) != `{"a":"b\n\nX"}` {
		t.Errorf("JSON at the site = %s", got)
	}
	for _, c := range Channels {
		if !Known(c) {
			t.Errorf("%s not known", c)
		}
	}
	if Known("mail") {
		t.Error("an unknown channel is known")
	}
}

func FuzzInto(f *testing.F) {
	for _, s := range []string{`"x"`, `{"a":[1,"b",{"c":"dd"}]}`, `[]`, `null`, `{`, `1e400`} {
		f.Add(s, "payload")
	}
	f.Fuzz(func(t *testing.T, in, payload string) {
		out := Into(json.RawMessage(in), payload)
		if !json.Valid(out) {
			t.Fatalf("Into(%q) = %q is not JSON", in, out)
		}
	})
}

func TestTextual(t *testing.T) {
	for mime, want := range map[string]bool{
		"text/plain": true, "text/csv": true, "TEXT/Markdown; charset=utf-8": true,
		"application/json": true, "application/xml": true, "application/ld+json": true, "image/svg+xml": true,
		"application/markdown": true, "application/x-markdown": true,
		"application/pdf": false, "image/png": false, "application/octet-stream": false, "": false,
		"application/jsonl": false,
	} {
		if got := Textual(mime); got != want {
			t.Errorf("Textual(%q) = %v, want %v", mime, got, want)
		}
	}
}
