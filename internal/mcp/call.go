package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// Types of the raw events a turn records.
const (
	EventProgress = "mcp:progress"   // a notifications/progress's params
	EventResult   = "mcp:result"     // a tools/call result (a CallToolResult)
	EventList     = "mcp:tools/list" // a tools/list result (one page)
	EventError    = "mcp:error"      // a JSON-RPC error answering either
)

// call plays an mcp:call turn: one tools/call request, recorded as a run
// holding one tool call whose result is the CallToolResult the server sent.
func (s *Session) call(ctx context.Context, in target.Turn, rec *trace.Recorder) error {
	args, err := arguments(in.Arguments)
	if err != nil {
		return fmt.Errorf("mcp: call %q: %w", in.Tool, err)
	}
	id := s.nextID()
	ctx, cancel := s.bound(ctx)
	defer cancel()
	s.wire.take() // what came late for an earlier turn
	start := s.o.Now()
	rec.StartRun(id, start)
	// The progress token asks the server for progress notifications; the
	// call's id keeps it unique within the session.
	params := &sdk.CallToolParams{Meta: sdk.Meta{"progressToken": id}, Name: in.Tool}
	if args != nil {
		params.Arguments = args // else {}: the SDK sends no null
	}
	res, callErr := s.cs.CallTool(ctx, params)
	got, pending := s.wire.take()

	c := trace.ToolCall{ID: id, Name: in.Tool, Args: string(args), StartedMs: start.UnixMilli()}
	if args == nil {
		c.Args = "{}"
	}
	ex := exchange{rec: rec, call: &c}
	resp := ex.replay(got, methodCall)
	if resp == nil && callErr == nil {
		// Answered, but not through the tap (a result larger than maxLine):
		// the SDK's decoding stands in for the bytes.
		raw, _ := json.Marshal(res)
		resp = &message{at: s.o.Now(), method: methodCall, result: raw}
		ex.answer(resp, EventResult)
	}
	request := requestOf(resp, pending, params)
	if resp == nil {
		ex.end(request, s.o.Now())
		return s.failure(ctx, fmt.Sprintf("call %q", in.Tool), callErr)
	}
	c.Result = callResult(resp)
	ex.end(request, s.o.Now())
	if callErr != nil && resp.err == nil {
		return fmt.Errorf("mcp: call %q: the result is not a valid CallToolResult: %w", in.Tool, callErr)
	}
	return nil
}

// exchange records one turn's run: the progress it was sent, the answers,
// and finally its tool call.
type exchange struct {
	rec    *trace.Recorder
	call   *trace.ToolCall
	events int
}

// replay records the progress and the answers among got, in order, and
// returns the last answer to a method request.
func (ex *exchange) replay(got []message, method string) *message {
	var resp *message
	for i := range got {
		m := &got[i]
		switch m.method {
		case methodProgress:
			ex.record(EventProgress, m.params, m)
		case method:
			typ := EventResult
			if method == methodList {
				typ = EventList
			}
			ex.answer(m, typ)
			resp = m
		}
	}
	return resp
}

// answer records a response: typ with its result, or an EventError.
func (ex *exchange) answer(m *message, typ string) {
	data := m.result
	if m.err != nil {
		typ, data = EventError, m.err
	}
	seq := ex.record(typ, data, m)
	c := ex.call
	c.EndSeq, c.ResultSeq, c.EndedMs = seq, seq, m.at.UnixMilli()
}

func (ex *exchange) record(typ string, data json.RawMessage, m *message) int64 {
	if data == nil {
		data = json.RawMessage("null")
	}
	seq := ex.rec.Record(typ, data, m.at)
	ex.events++
	if ex.call.StartSeq == 0 {
		ex.call.StartSeq = seq
	}
	return seq
}

// end adds the call and closes the run.
func (ex *exchange) end(request json.RawMessage, at time.Time) {
	ex.rec.AddCall(*ex.call)
	ex.rec.EndRun(ex.events, request, at)
}

// callResult is the trace's result of a tools/call answer. Content is the
// CallToolResult as the server sent it, or {"error": <the JSON-RPC error>}
// when it answered with an error; Error is set when the call failed: the
// error's code and message, or the result's first text when isError is
// true.
func callResult(m *message) *trace.Result {
	if m.err != nil {
		return errorResult(m.err)
	}
	r := &trace.Result{Content: string(m.result), JSON: json.Valid(m.result)}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if json.Unmarshal(m.result, &res) != nil || !res.IsError {
		return r
	}
	r.Error = "the tool reported an error (isError) without text"
	for _, c := range res.Content {
		if c.Type == "text" && c.Text != "" {
			r.Error = c.Text
			break
		}
	}
	return r
}

// errorResult is the result of a request answered with a JSON-RPC error.
func errorResult(rpcErr json.RawMessage) *trace.Result {
	var e struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal(rpcErr, &e)
	content, _ := json.Marshal(struct {
		Error json.RawMessage `json:"error"`
	}{rpcErr})
	return &trace.Result{Content: string(content), JSON: true, Error: fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message)}
}

// arguments checks a call's arguments: a JSON object, or nothing (sent as
// {}).
func arguments(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' || !json.Valid(raw) {
		return nil, errors.New("the arguments are not a JSON object")
	}
	return raw, nil
}

// requestOf returns the request a turn sent: as it went out on the wire,
// or as the SDK was asked to send it when the tap did not see it.
func requestOf(resp *message, pending []message, params any) json.RawMessage {
	if resp != nil && resp.request != nil {
		return resp.request
	}
	if len(pending) > 0 {
		return pending[0].raw
	}
	raw, _ := json.Marshal(params)
	return raw
}
