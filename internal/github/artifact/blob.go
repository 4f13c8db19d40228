package artifact

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Block upload, as the toolkit's BlockBlobClient.uploadStream does it
// (docs/github-ci.md §3.4): Put Block for each 8 MiB piece, then one Put
// Block List that commits them in order.
const (
	defaultBlockSize = 8 << 20
	// maxBlocks: "A block blob can include up to 50,000 blocks"
	// (learn.microsoft.com, Put Block).
	maxBlocks = 50000
)

// blockID is the id of the i-th block. Azure wants base64 ids of one length
// for all blocks of a blob, so the number is zero-padded.
func blockID(i int) string {
	return base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "ananke-block-%05d", i))
}

// putBlob uploads data to the signed URL as blocks and commits them.
func (c *client) putBlob(ctx context.Context, signed signedURL, data []byte) error {
	size := c.blockSize
	n := max(1, (len(data)+size-1)/size)
	if n > maxBlocks {
		return fmt.Errorf("%d bytes need %d blocks of %d bytes; Azure allows %d", len(data), n, size, maxBlocks)
	}
	ids := make([]string, n)
	for i := range n {
		ids[i] = blockID(i)
		chunk := data[i*size : min(len(data), (i+1)*size)]
		u := withQuery(signed.raw, "comp=block&blockid="+url.QueryEscape(ids[i]))
		if err := c.put(ctx, signed, u, chunk, nil); err != nil {
			return fmt.Errorf("put block %d of %d: %w", i+1, n, err)
		}
	}
	var list bytes.Buffer
	list.WriteString(xml.Header + "<BlockList>")
	for _, id := range ids {
		list.WriteString("<Latest>" + id + "</Latest>") // base64 needs no escaping
	}
	list.WriteString("</BlockList>")
	header := http.Header{
		"Content-Type":           {"application/xml"},
		"X-Ms-Blob-Content-Type": {zipMimeType},
	}
	if err := c.put(ctx, signed, withQuery(signed.raw, "comp=blocklist"), list.Bytes(), header); err != nil {
		return fmt.Errorf("put block list: %w", err)
	}
	return nil
}

// put sends body to the signed URL u. Signed URLs carry their own
// authorization, so no Authorization header goes with them.
func (c *client) put(ctx context.Context, signed signedURL, u string, body []byte, header http.Header) error {
	build := func(ctx context.Context) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, u, bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("build request: %s", signed.scrub(err.Error()))
		}
		for k, v := range header {
			req.Header[k] = v
		}
		return req, nil
	}
	judge := func(r response) (bool, error) {
		return retryableStatus(r.status), blobError(r, signed.scrub)
	}
	_, err := c.send(ctx, build, judge)
	return err
}

// blobError describes an Azure storage error answer: the x-ms-error-code
// header or the XML <Error><Code>, and its <Message>, with secrets cut out
// in case the server echoes the request.
func blobError(r response, scrub func(string) string) error {
	var body struct {
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
	}
	msg := shorten(string(r.body))
	if xml.Unmarshal(r.body, &body) == nil {
		msg = shorten(body.Message)
	}
	code := r.header.Get("x-ms-error-code")
	if code == "" {
		code = body.Code
	}
	s := fmt.Sprintf("HTTP %d", r.status)
	if code != "" {
		s += " " + code
	}
	if msg != "" {
		s += ": " + msg
	}
	return errors.New(scrub(s))
}

// withQuery appends the parameters q to u's query, leaving the signed part
// byte for byte as the service wrote it.
func withQuery(u, q string) string {
	if strings.Contains(u, "?") {
		return u + "&" + q
	}
	return u + "?" + q
}
