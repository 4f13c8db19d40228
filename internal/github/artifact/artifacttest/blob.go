package artifacttest

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
)

// serveBlob is the Azure side: Put Block and Put Block List on a signed URL.
// A Put Blob fails the test — nektos/act's fake would drop its data.
func (s *Server) serveBlob(w http.ResponseWriter, r *http.Request) {
	u := s.uploadFor(strings.TrimPrefix(r.URL.Path, blobPrefix))
	if u == nil {
		s.errorf("blob %s: no such upload", r.URL.Path)
		writeBlobError(w, http.StatusNotFound, "BlobNotFound", "no such blob")
		return
	}
	if r.Header.Get("Authorization") != "" {
		s.errorf("blob %s: signed URLs take no Authorization header", u.Name)
	}
	q := r.URL.Query()
	if q.Get("sig") != u.sig {
		s.errorf("blob %s: sig parameter altered or missing", u.Name)
		writeBlobError(w, http.StatusForbidden, "AuthenticationFailed", "Signature did not match")
		return
	}
	if r.Method != http.MethodPut {
		s.errorf("blob %s: method %s, want PUT", u.Name, r.Method)
		writeBlobError(w, http.StatusMethodNotAllowed, "UnsupportedHttpVerb", "PUT only")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.errorf("blob %s: read body: %v", u.Name, err)
		return
	}
	if r.ContentLength != int64(len(body)) {
		s.errorf("blob %s: Content-Length %d for %d bytes (Azure requires it)", u.Name, r.ContentLength, len(body))
		writeBlobError(w, http.StatusLengthRequired, "MissingContentLengthHeader", "Content-Length required")
		return
	}
	switch comp := q.Get("comp"); comp {
	case "block":
		s.putBlock(w, u, q.Get("blockid"), body)
	case "blocklist":
		s.putBlockList(w, u, r.Header.Get("x-ms-blob-content-type"), body)
	default:
		s.errorf("blob %s: comp=%q: use Put Block + Put Block List, not Put Blob (nektos/act keeps only block bodies)", u.Name, comp)
		writeBlobError(w, http.StatusBadRequest, "InvalidQueryParameterValue", "unsupported comp")
	}
}

func (s *Server) putBlock(w http.ResponseWriter, u *upload, id string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkBlockID(u, id); err != nil {
		s.errorf("Put Block %s: %v", u.Name, err)
		writeBlobError(w, http.StatusBadRequest, "InvalidQueryParameterValue", err.Error())
		return
	}
	if u.committed {
		s.errorf("Put Block %s: after Put Block List", u.Name)
	}
	if _, seen := u.blocks[id]; !seen {
		u.order = append(u.order, id)
	}
	u.blocks[id] = body
	w.WriteHeader(http.StatusCreated)
}

// checkBlockID applies Azure's rules: a base64 string of at most 64 bytes
// decoded, all ids of one blob of the same length. s.mu is held.
func (s *Server) checkBlockID(u *upload, id string) error {
	dec, err := base64.StdEncoding.DecodeString(id)
	switch {
	case id == "":
		return errors.New("no blockid")
	case err != nil:
		return errors.New("blockid " + id + " is not base64")
	case len(dec) > 64:
		return errors.New("blockid longer than 64 bytes decoded")
	case len(u.order) > 0 && len(id) != len(u.order[0]):
		return errors.New("block ids of one blob must all have the same length")
	}
	return nil
}

// blockList is Put Block List's body; every entry's element name is kept.
type blockList struct {
	XMLName xml.Name `xml:"BlockList"`
	Items   []struct {
		XMLName xml.Name
		ID      string `xml:",chardata"`
	} `xml:",any"`
}

func (s *Server) putBlockList(w http.ResponseWriter, u *upload, contentType string, body []byte) {
	if contentType != "application/zip" {
		s.errorf("Put Block List %s: x-ms-blob-content-type %q, want application/zip", u.Name, contentType)
	}
	var list blockList
	if err := xml.Unmarshal(body, &list); err != nil {
		s.errorf("Put Block List %s: body is not a <BlockList>: %v", u.Name, err)
		writeBlobError(w, http.StatusBadRequest, "InvalidXmlDocument", err.Error())
		return
	}
	var ids []string
	for _, it := range list.Items {
		if it.XMLName.Local != "Latest" && it.XMLName.Local != "Uncommitted" {
			s.errorf("Put Block List %s: element <%s>, want <Latest>", u.Name, it.XMLName.Local)
		}
		ids = append(ids, it.ID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Equal(ids, u.order) {
		s.errorf("Put Block List %s: lists %q, want the uploaded blocks in order %q", u.Name, ids, u.order)
		writeBlobError(w, http.StatusBadRequest, "InvalidBlockList", "block list does not match the uploaded blocks")
		return
	}
	var data bytes.Buffer
	u.Blocks = u.Blocks[:0]
	for _, id := range ids {
		data.Write(u.blocks[id])
		u.Blocks = append(u.Blocks, len(u.blocks[id]))
	}
	u.Data, u.ContentType, u.committed = data.Bytes(), contentType, true
	w.WriteHeader(http.StatusCreated)
}

// invalidNameChars are the characters the service refuses in names
// (actions/toolkit path-and-artifact-name-validation.ts), kept apart from
// package artifact's copy so the fake checks the client independently.
const invalidNameChars = "\":<>|*?\r\n\\/"

func validName(name string) error {
	if name == "" {
		return errors.New("artifact name is empty")
	}
	if i := strings.IndexAny(name, invalidNameChars); i >= 0 {
		return errors.New("artifact name " + name + " contains an invalid character")
	}
	return nil
}
