package decode

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
)

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// ParseBytes parses data, the file's contents, into its document's root
// node, reporting why it cannot (nil then).
func (d *Decoder) ParseBytes(data []byte) (root *yaml.Node) {
	file := diag.Pos{File: d.File, Line: 1, Col: 1}
	switch {
	case bytes.IndexByte(data, 0) >= 0:
		d.Diags.Add(file, "not a text file (it contains NUL bytes)")
		return nil
	case !utf8.Valid(data):
		d.Diags.Add(file, "file is not valid UTF-8")
		return nil
	}
	defer func() {
		// yaml.v3 has panicked on hostile input before; a panic here must
		// become a diagnostic, never a crash.
		if r := recover(); r != nil {
			d.Diags.Add(file, "cannot parse YAML: %v", r)
			root = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.Diags.Add(file, "file is empty")
		} else {
			d.yamlError(err)
		}
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		d.Diags.Add(diag.Pos{File: d.File, Line: extra.Line, Col: extra.Column}, "a file holds one document; remove the second one (after ---)")
	} else if !errors.Is(err, io.EOF) {
		d.yamlError(err)
		return nil
	}
	if len(doc.Content) == 0 {
		d.Diags.Add(file, "file is empty")
		return nil
	}
	return doc.Content[0]
}

// yamlError turns a yaml.v3 parse error ("yaml: line 3: ...") into a
// positioned diagnostic. The parser gives no column.
func (d *Decoder) yamlError(err error) {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for _, msg := range msgs {
		p := diag.Pos{File: d.File, Line: 1, Col: 1}
		if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		d.Diags.Add(p, "invalid YAML: %s", strings.TrimPrefix(msg, "yaml: "))
	}
}
