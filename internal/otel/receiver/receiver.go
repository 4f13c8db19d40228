// Package receiver is Ananke's OTLP/HTTP trace receiver
// (docs/opentelemetry.md, "Spans in"): the agent's OpenTelemetry
// exporter sends its spans to POST /v1/traces, protobuf or JSON,
// gzipped or not, and they go to a spanstore.Store, which gives each
// test attempt those of its trace id. It answers as the OTLP/HTTP
// specification says: 200 with an ExportTraceServiceResponse, 400 for
// data it cannot read, 413 over the size limit, 415 for an encoding it
// does not speak, each error with a google.rpc.Status body.
package receiver

import (
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ananke/action/internal/otel/otlp"
	"github.com/ananke/action/internal/otel/spanstore"
)

// Path is where the receiver takes traces, under its base URL (the
// URL an exporter's OTEL_EXPORTER_OTLP_ENDPOINT names).
const Path = "/v1/traces"

// DefaultMaxBodyBytes bounds one request's body, once decompressed.
const DefaultMaxBodyBytes = 32 << 20

// The content types of OTLP/HTTP.
const (
	protobufType = "application/x-protobuf"
	jsonType     = "application/json"
)

// google.rpc.Code values the error bodies carry.
const (
	codeInvalidArgument   = 3
	codeResourceExhausted = 8
	codeUnimplemented     = 12
)

// Options configures a Receiver.
type Options struct {
	// MaxBodyBytes bounds a request's body, decompressed (0:
	// DefaultMaxBodyBytes).
	MaxBodyBytes int64
}

// Receiver is the OTLP/HTTP handler. It is safe for concurrent use.
type Receiver struct {
	store *spanstore.Store
	max   int64

	mu    sync.Mutex
	stats Stats
}

// Stats counts the requests a Receiver answered.
type Stats struct {
	// Requests is every export request; Refused those answered with an
	// error status, LastError the last one's message.
	Requests, Refused int
	LastError         string
}

// New returns a receiver that adds the spans it gets to store.
func New(store *spanstore.Store, opts Options) *Receiver {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return &Receiver{store: store, max: opts.MaxBodyBytes}
}

// Server returns an http.Server serving the receiver, for Serve on a
// listener.
func (r *Receiver) Server() *http.Server {
	return &http.Server{Handler: r, ReadHeaderTimeout: time.Minute}
}

// Stats returns what the receiver answered so far.
func (r *Receiver) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// ServeHTTP takes one export request.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != Path {
		http.Error(w, "Ananke's OTLP receiver takes traces at POST "+Path, http.StatusNotFound)
		return
	}
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST traces to "+Path, http.StatusMethodNotAllowed)
		return
	}
	mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	proto := mt == protobufType
	if !proto && mt != jsonType {
		r.refuse(w, true, http.StatusUnsupportedMediaType, codeUnimplemented,
			fmt.Sprintf("content type %q: OTLP/HTTP traces are %s or %s", req.Header.Get("Content-Type"), protobufType, jsonType))
		return
	}
	body, status, err := r.read(w, req)
	if err != nil {
		code := codeInvalidArgument
		switch status {
		case http.StatusRequestEntityTooLarge:
			code = codeResourceExhausted
		case http.StatusUnsupportedMediaType:
			code = codeUnimplemented
		}
		r.refuse(w, proto, status, code, err.Error())
		return
	}
	td, err := otlp.Decode(body, proto)
	if err != nil {
		r.refuse(w, proto, http.StatusBadRequest, codeInvalidArgument, "decode the traces: "+err.Error())
		return
	}
	spans, err := otlp.Spans(td)
	if err != nil {
		r.refuse(w, proto, http.StatusBadRequest, codeInvalidArgument, err.Error())
		return
	}
	r.store.Add(spans)
	r.mu.Lock()
	r.stats.Requests++
	r.mu.Unlock()
	// A full success: an ExportTraceServiceResponse with no partial
	// success, which is empty in both encodings.
	if proto {
		w.Header().Set("Content-Type", protobufType)
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", jsonType)
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, "{}")
}

// errTooLarge is a body over the limit.
var errTooLarge = errors.New("too large")

// read reads the request's body, decompressed, within the limit; on
// error, the status to answer.
func (r *Receiver) read(w http.ResponseWriter, req *http.Request) ([]byte, int, error) {
	in := io.Reader(http.MaxBytesReader(w, req.Body, r.max))
	switch enc := strings.ToLower(strings.TrimSpace(req.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(in)
		if err != nil {
			return nil, bodyStatus(err), fmt.Errorf("gzip body: %w", err)
		}
		defer zr.Close()
		in = zr
	default:
		return nil, http.StatusUnsupportedMediaType, fmt.Errorf("content encoding %q: the receiver reads gzip or none", enc)
	}
	b, err := io.ReadAll(io.LimitReader(in, r.max+1))
	if err == nil && int64(len(b)) > r.max {
		err = errTooLarge
	}
	if err != nil {
		if bodyStatus(err) == http.StatusRequestEntityTooLarge {
			return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the body is over %d bytes", r.max)
		}
		return nil, http.StatusBadRequest, fmt.Errorf("read the body: %w", err)
	}
	return b, 0, nil
}

// bodyStatus is the status for an error reading a body.
func bodyStatus(err error) int {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) || errors.Is(err, errTooLarge) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// refuse answers status with a google.rpc.Status body saying why, in the
// request's encoding, and counts it.
func (r *Receiver) refuse(w http.ResponseWriter, proto bool, status, code int, msg string) {
	r.mu.Lock()
	r.stats.Requests++
	r.stats.Refused++
	r.stats.LastError = msg
	r.mu.Unlock()
	if proto {
		// google.rpc.Status{code: 1, message: 2}: a varint and a string,
		// whose varints are encoding/binary's (the binary links no
		// protobuf runtime for two fields). A key is the field number
		// shifted by 3 and the wire type: 0 varint, 2 length-delimited.
		const codeKey, messageKey = 1 << 3, 2<<3 | 2
		b := binary.AppendUvarint([]byte{codeKey}, uint64(code))
		b = append(b, messageKey)
		b = binary.AppendUvarint(b, uint64(len(msg)))
		b = append(b, msg...)
		w.Header().Set("Content-Type", protobufType)
		w.WriteHeader(status)
		w.Write(b)
		return
	}
	b, _ := json.Marshal(struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg})
	w.Header().Set("Content-Type", jsonType)
	w.WriteHeader(status)
	w.Write(b)
}
