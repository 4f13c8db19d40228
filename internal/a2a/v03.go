package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/google/uuid"

	eventstream "github.com/ananke/action/internal/sse"
)

// A2A 0.3's JSON-RPC methods.
const (
	v03MethodSend   = "message/send"
	v03MethodStream = "message/stream"
	v03MethodGet    = "tasks/get"
	v03MethodCancel = "tasks/cancel"
)

// v03MaxEvent bounds an event of a stream: the SDK's limit.
const v03MaxEvent = 10 << 20

// withV03 lets the SDK's client speak A2A 0.3's JSON-RPC binding to an
// interface of a 0.x version, through hc.
func withV03(hc *http.Client) a2aclient.FactoryOption {
	return a2aclient.WithCompatTransport(v03Version, a2a.TransportProtocolJSONRPC,
		a2aclient.TransportFactoryFn(func(_ context.Context, _ *a2a.AgentCard, in *a2a.AgentInterface) (a2aclient.Transport, error) {
			return &v03Transport{url: in.URL, hc: hc}, nil
		}))
}

// v03Transport is the SDK client's transport for an A2A 0.3 agent: the
// methods Ananke calls (message/send, message/stream, tasks/get) and
// tasks/cancel, their requests written in 0.3's JSON and their results
// read into 1.0's model (v03wire.go). The others answer
// a2a.ErrUnsupportedOperation.
type v03Transport struct {
	url string
	hc  *http.Client
}

var _ a2aclient.Transport = (*v03Transport)(nil)

// rpcRequest is a JSON-RPC request.
type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
	ID      string `json:"id"`
}

// rpcResponse is a JSON-RPC response, or one event of a stream.
type rpcResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// post sends a call and returns its response, whose status was 200. Its
// errors say what the SDK's 1.0 transport says, so that both versions'
// failures read alike.
func (t *v03Transport) post(ctx context.Context, params a2aclient.ServiceParams, method string, payload any, stream bool) (*http.Response, error) {
	body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", Method: method, Params: payload, ID: uuid.NewString()})
	if err != nil {
		return nil, fmt.Errorf("failed to marshal request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("failed to create HTTP request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	}
	for k, vs := range params {
		if strings.EqualFold(k, a2a.SvcParamExtensions) {
			k = "X-" + k // as 0.3 named it
		}
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("failed to send HTTP request: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		// Unread: the status is the answer (capture).
		resp.Body.Close()
		return nil, fmt.Errorf("unexpected HTTP status: %s", resp.Status)
	}
	return resp, nil
}

// call sends a call and returns its result.
func (t *v03Transport) call(ctx context.Context, params a2aclient.ServiceParams, method string, payload any) (json.RawMessage, error) {
	resp, err := t.post(ctx, params, method, payload, false)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var r rpcResponse
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, fmt.Errorf("failed to decode response: %w", err)
	}
	if r.Error != nil {
		return nil, r.Error.err()
	}
	return r.Result, nil
}

// err is the JSON-RPC error as the SDK's client returns one: its message,
// wrapping the A2A error its code stands for.
func (e *RPCError) err() error {
	base, ok := rpcCodes[e.Code]
	if !ok {
		base = a2a.ErrInternalError
	}
	msg := e.Message
	if msg == "" {
		msg = base.Error()
	}
	return a2a.NewError(base, msg)
}

// rpcCodes are the errors A2A's JSON-RPC codes stand for.
var rpcCodes = map[int]error{
	-32700: a2a.ErrParseError,
	-32600: a2a.ErrInvalidRequest,
	-32601: a2a.ErrMethodNotFound,
	-32602: a2a.ErrInvalidParams,
	-32603: a2a.ErrInternalError,
	-32000: a2a.ErrServerError,
	-32001: a2a.ErrTaskNotFound,
	-32002: a2a.ErrTaskNotCancelable,
	-32003: a2a.ErrPushNotificationNotSupported,
	-32004: a2a.ErrUnsupportedOperation,
	-32005: a2a.ErrUnsupportedContentType,
	-32006: a2a.ErrInvalidAgentResponse,
	-32007: a2a.ErrExtendedCardNotConfigured,
	-32008: a2a.ErrExtensionSupportRequired,
	-32009: a2a.ErrVersionNotSupported,
	-31401: a2a.ErrUnauthenticated,
	-31403: a2a.ErrUnauthorized,
}

// SendMessage sends message/send: its result is a message or a task.
func (t *v03Transport) SendMessage(ctx context.Context, params a2aclient.ServiceParams, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	p, err := v03Send(req)
	if err != nil {
		return nil, err
	}
	raw, err := t.call(ctx, params, v03MethodSend, p)
	if err != nil {
		return nil, err
	}
	ev, err := v03Event(raw)
	if err != nil {
		return nil, err
	}
	switch r := ev.(type) {
	case *a2a.Message:
		return r, nil
	case *a2a.Task:
		return r, nil
	}
	return nil, fmt.Errorf("%s answered a %s, not a message or a task", v03MethodSend, kind(ev))
}

// SendStreamingMessage sends message/stream and reads the events of its
// answer, however it is framed: a body without events (a plain JSON-RPC
// answer) is a stream without events.
func (t *v03Transport) SendStreamingMessage(ctx context.Context, params a2aclient.ServiceParams, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		p, err := v03Send(req)
		if err != nil {
			yield(nil, err)
			return
		}
		resp, err := t.post(ctx, params, v03MethodStream, p, true)
		if err != nil {
			yield(nil, err)
			return
		}
		defer resp.Body.Close()
		sr := eventstream.NewReader(resp.Body, v03MaxEvent)
		sr.UnendedLastLine = true
		defer sr.Release()
		for {
			data, err := sr.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, fmt.Errorf("SSE stream error: %w", err))
				return
			}
			if len(bytes.Trim(data, "\n")) == 0 {
				continue // no data
			}
			ev, err := v03StreamEvent(data)
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// v03StreamEvent reads one event of a stream: a JSON-RPC response whose
// result is the event, or an error.
func v03StreamEvent(data []byte) (a2a.Event, error) {
	var r rpcResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("failed to parse SSE data: %w", err)
	}
	if r.Error != nil {
		return nil, r.Error.err()
	}
	return v03Event(r.Result)
}

// GetTask sends tasks/get.
func (t *v03Transport) GetTask(ctx context.Context, params a2aclient.ServiceParams, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	raw, err := t.call(ctx, params, v03MethodGet, struct {
		HistoryLength *int       `json:"historyLength,omitempty"`
		ID            a2a.TaskID `json:"id"`
	}{req.HistoryLength, req.ID})
	if err != nil {
		return nil, err
	}
	return v03TaskOf(raw)
}

// CancelTask sends tasks/cancel.
func (t *v03Transport) CancelTask(ctx context.Context, params a2aclient.ServiceParams, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	raw, err := t.call(ctx, params, v03MethodCancel, struct {
		ID       a2a.TaskID     `json:"id"`
		Metadata map[string]any `json:"metadata,omitempty"`
	}{req.ID, req.Metadata})
	if err != nil {
		return nil, err
	}
	return v03TaskOf(raw)
}

// errV03Unsupported is a method Ananke never calls on a 0.3 agent.
var errV03Unsupported = fmt.Errorf("not spoken to A2A 0.3 agents: %w", a2a.ErrUnsupportedOperation)

func (t *v03Transport) ListTasks(context.Context, a2aclient.ServiceParams, *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	return nil, errV03Unsupported
}

func (t *v03Transport) SubscribeToTask(context.Context, a2aclient.ServiceParams, *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, errV03Unsupported) }
}

func (t *v03Transport) GetTaskPushConfig(context.Context, a2aclient.ServiceParams, *a2a.GetTaskPushConfigRequest) (*a2a.PushConfig, error) {
	return nil, errV03Unsupported
}

func (t *v03Transport) ListTaskPushConfigs(context.Context, a2aclient.ServiceParams, *a2a.ListTaskPushConfigRequest) ([]*a2a.PushConfig, error) {
	return nil, errV03Unsupported
}

func (t *v03Transport) CreateTaskPushConfig(context.Context, a2aclient.ServiceParams, *a2a.PushConfig) (*a2a.PushConfig, error) {
	return nil, errV03Unsupported
}

func (t *v03Transport) DeleteTaskPushConfig(context.Context, a2aclient.ServiceParams, *a2a.DeleteTaskPushConfigRequest) error {
	return errV03Unsupported
}

func (t *v03Transport) GetExtendedAgentCard(context.Context, a2aclient.ServiceParams, *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	return nil, errV03Unsupported
}

// Destroy has nothing to release: the session closes the HTTP client's
// connections.
func (t *v03Transport) Destroy() error { return nil }
