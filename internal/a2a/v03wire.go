package a2a

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A2A 0.3's JSON, read into the SDK's 1.0 model (docs/a2a.md, "Protocol
// versions"). Events and parts name their kind ("kind": "task", "text");
// states and roles are lower case ("input-required", "agent"). Every field
// 0.3 defines for these objects is decoded, the ones 1.0 dropped too, so
// that what 0.3 calls malformed is an error here as well.

// v03Version is the version the 0.3 interfaces are spoken as, whatever
// patch release their card names.
const v03Version a2a.ProtocolVersion = "0.3"

// v03Event reads one event (a message/send result, a stream's event) into
// the SDK's model: its kind says which.
func v03Event(raw []byte) (a2a.Event, error) {
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("read event: %w", err)
	}
	var (
		ev  interface{ v1() a2a.Event }
		err error
	)
	switch head.Kind {
	case "message":
		var m v03Message
		ev, err = &m, json.Unmarshal(raw, &m)
	case "task":
		var t v03Task
		ev, err = &t, json.Unmarshal(raw, &t)
	case "status-update":
		var e v03StatusUpdate
		ev, err = &e, json.Unmarshal(raw, &e)
	case "artifact-update":
		var e v03ArtifactUpdate
		ev, err = &e, json.Unmarshal(raw, &e)
	default:
		return nil, fmt.Errorf("read event: unknown kind %q", head.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s event: %w", head.Kind, err)
	}
	return ev.v1(), nil
}

// v03TaskOf reads a task (tasks/get's result, tasks/cancel's): a task by
// its shape, whatever its kind says.
func v03TaskOf(raw []byte) (*a2a.Task, error) {
	var t v03Task
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("read task: %w", err)
	}
	return t.task(), nil
}

type v03Message struct {
	ID             string         `json:"messageId"`
	ContextID      string         `json:"contextId"`
	Extensions     []string       `json:"extensions"`
	Metadata       map[string]any `json:"metadata"`
	Parts          v03Parts       `json:"parts"`
	ReferenceTasks []a2a.TaskID   `json:"referenceTaskIds"`
	Role           string         `json:"role"`
	TaskID         a2a.TaskID     `json:"taskId"`
}

func (m *v03Message) v1() a2a.Event { return m.message() }

func (m *v03Message) message() *a2a.Message {
	if m == nil {
		return nil
	}
	role := a2a.MessageRoleUnspecified
	switch m.Role {
	case "agent":
		role = a2a.MessageRoleAgent
	case "user":
		role = a2a.MessageRoleUser
	}
	return &a2a.Message{ID: m.ID, ContextID: m.ContextID, Extensions: m.Extensions, Metadata: m.Metadata,
		Parts: a2a.ContentParts(m.Parts), ReferenceTasks: m.ReferenceTasks, Role: role, TaskID: m.TaskID}
}

type v03Status struct {
	Message   *v03Message `json:"message"`
	State     string      `json:"state"`
	Timestamp *time.Time  `json:"timestamp"`
}

func (s *v03Status) status() a2a.TaskStatus {
	return a2a.TaskStatus{Message: s.Message.message(), State: v03States[s.State], Timestamp: s.Timestamp}
}

// v03States are 0.3's task states in 1.0's spelling; any other ("unknown"
// included) is unspecified.
var v03States = map[string]a2a.TaskState{
	"submitted":      a2a.TaskStateSubmitted,
	"working":        a2a.TaskStateWorking,
	"input-required": a2a.TaskStateInputRequired,
	"auth-required":  a2a.TaskStateAuthRequired,
	"completed":      a2a.TaskStateCompleted,
	"canceled":       a2a.TaskStateCanceled,
	"failed":         a2a.TaskStateFailed,
	"rejected":       a2a.TaskStateRejected,
}

type v03Task struct {
	ID        a2a.TaskID     `json:"id"`
	Artifacts []*v03Artifact `json:"artifacts"`
	ContextID string         `json:"contextId"`
	History   []*v03Message  `json:"history"`
	Metadata  map[string]any `json:"metadata"`
	Status    v03Status      `json:"status"`
}

func (t *v03Task) v1() a2a.Event { return t.task() }

func (t *v03Task) task() *a2a.Task {
	out := &a2a.Task{ID: t.ID, ContextID: t.ContextID, Metadata: t.Metadata, Status: t.Status.status()}
	if len(t.Artifacts) > 0 {
		out.Artifacts = make([]*a2a.Artifact, len(t.Artifacts))
		for i, a := range t.Artifacts {
			out.Artifacts[i] = a.artifact()
		}
	}
	if len(t.History) > 0 {
		out.History = make([]*a2a.Message, len(t.History))
		for i, m := range t.History {
			out.History[i] = m.message()
		}
	}
	return out
}

type v03Artifact struct {
	ID          a2a.ArtifactID `json:"artifactId"`
	Description string         `json:"description"`
	Extensions  []string       `json:"extensions"`
	Metadata    map[string]any `json:"metadata"`
	Name        string         `json:"name"`
	Parts       v03Parts       `json:"parts"`
}

func (a *v03Artifact) artifact() *a2a.Artifact {
	if a == nil {
		return nil
	}
	return &a2a.Artifact{ID: a.ID, Description: a.Description, Extensions: a.Extensions, Metadata: a.Metadata,
		Name: a.Name, Parts: a2a.ContentParts(a.Parts)}
}

type v03StatusUpdate struct {
	ContextID string         `json:"contextId"`
	Final     bool           `json:"final"` // 1.0 has no such field
	Status    v03Status      `json:"status"`
	TaskID    a2a.TaskID     `json:"taskId"`
	Metadata  map[string]any `json:"metadata"`
}

func (e *v03StatusUpdate) v1() a2a.Event {
	return &a2a.TaskStatusUpdateEvent{ContextID: e.ContextID, Status: e.Status.status(), TaskID: e.TaskID, Metadata: e.Metadata}
}

type v03ArtifactUpdate struct {
	Append    bool           `json:"append"`
	Artifact  *v03Artifact   `json:"artifact"`
	ContextID string         `json:"contextId"`
	LastChunk bool           `json:"lastChunk"`
	TaskID    a2a.TaskID     `json:"taskId"`
	Metadata  map[string]any `json:"metadata"`
}

func (e *v03ArtifactUpdate) v1() a2a.Event {
	return &a2a.TaskArtifactUpdateEvent{Append: e.Append, Artifact: e.Artifact.artifact(), ContextID: e.ContextID,
		LastChunk: e.LastChunk, TaskID: e.TaskID, Metadata: e.Metadata}
}

// v03Parts are a message's or an artifact's parts, read into 1.0's: nil
// when there are none.
type v03Parts a2a.ContentParts

func (p *v03Parts) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	if len(raws) == 0 {
		*p = nil
		return nil
	}
	out := make(v03Parts, len(raws))
	for i, raw := range raws {
		part, err := v03Part(raw)
		if err != nil {
			return fmt.Errorf("part %d: %w", i, err)
		}
		out[i] = part
	}
	*p = out
	return nil
}

// dataPartCompat marks a data part whose data is not an object: 0.3 data
// is an object, so a 1.0 value of another type travels as {"value": …}.
const dataPartCompat = "data_part_compat"

// v03Part reads one part: text, data, or a file given by its bytes
// (base64) or its URI.
func v03Part(raw []byte) (*a2a.Part, error) {
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	switch head.Kind {
	case "text":
		var t struct {
			Text     string         `json:"text"`
			Metadata map[string]any `json:"metadata"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, err
		}
		return &a2a.Part{Content: a2a.Text(t.Text), Metadata: t.Metadata}, nil
	case "data":
		var d struct {
			Data     map[string]any `json:"data"`
			Metadata map[string]any `json:"metadata"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, err
		}
		var value any = d.Data
		if compat, _ := d.Metadata[dataPartCompat].(bool); compat {
			value = d.Data["value"]
			delete(d.Metadata, dataPartCompat)
		}
		return &a2a.Part{Content: a2a.Data{Value: value}, Metadata: d.Metadata}, nil
	case "file":
		var f struct {
			File struct {
				MimeType string `json:"mimeType"`
				Name     string `json:"name"`
				URI      string `json:"uri"`
				Bytes    string `json:"bytes"`
			} `json:"file"`
			Metadata map[string]any `json:"metadata"`
		}
		if err := json.Unmarshal(raw, &f); err != nil {
			return nil, err
		}
		part := &a2a.Part{Metadata: f.Metadata, MediaType: f.File.MimeType, Filename: f.File.Name}
		switch {
		case f.File.Bytes != "" && f.File.URI != "":
			return nil, errors.New("a file part with both bytes and a URI")
		case f.File.Bytes != "":
			b, err := base64.StdEncoding.DecodeString(f.File.Bytes)
			if err != nil {
				b = []byte(f.File.Bytes) // kept as sent
			}
			part.Content = a2a.Raw(b)
		case f.File.URI != "":
			part.Content = a2a.URL(f.File.URI)
		default:
			return nil, errors.New("a file part with neither bytes nor a URI")
		}
		return part, nil
	}
	return nil, fmt.Errorf("unknown part kind %q", head.Kind)
}

// What is sent: a message of text parts, as 0.3 writes it.

// v03SendParams are message/send's and message/stream's parameters.
type v03SendParams struct {
	Config   *v03SendConfig `json:"configuration,omitempty"`
	Message  *v03OutMessage `json:"message"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

type v03SendConfig struct {
	AcceptedOutputModes []string `json:"acceptedOutputModes,omitempty"`
	Blocking            *bool    `json:"blocking,omitempty"`
	HistoryLength       *int     `json:"historyLength,omitempty"`
}

type v03OutMessage struct {
	Kind           string         `json:"kind"`
	ID             string         `json:"messageId"`
	ContextID      string         `json:"contextId,omitempty"`
	Extensions     []string       `json:"extensions,omitempty"`
	Metadata       map[string]any `json:"metadata,omitempty"`
	Parts          []any          `json:"parts"` // v03OutPart, v03OutFilePart
	ReferenceTasks []a2a.TaskID   `json:"referenceTaskIds,omitempty"`
	Role           string         `json:"role"`
	TaskID         a2a.TaskID     `json:"taskId,omitempty"`
}

type v03OutPart struct {
	Kind     string         `json:"kind"`
	Text     string         `json:"text"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// v03OutFilePart is a file sent by its bytes.
type v03OutFilePart struct {
	Kind     string         `json:"kind"` // always "file"
	File     v03OutFile     `json:"file"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

type v03OutFile struct {
	MimeType string `json:"mimeType,omitempty"`
	Name     string `json:"name,omitempty"`
	Bytes    string `json:"bytes"`
}

// v03Send writes a 1.0 send request in 0.3's shape. Its configuration
// says blocking unless it asks to return immediately; push notification
// configurations, and parts other than text and files given by their
// bytes, are not sent (Ananke sends neither).
func v03Send(req *a2a.SendMessageRequest) (*v03SendParams, error) {
	if req == nil || req.Message == nil {
		return nil, errors.New("no message to send")
	}
	m := req.Message
	out := &v03SendParams{Metadata: req.Metadata, Message: &v03OutMessage{Kind: "message", ID: m.ID, ContextID: m.ContextID,
		Extensions: m.Extensions, Metadata: m.Metadata, ReferenceTasks: m.ReferenceTasks, TaskID: m.TaskID,
		Parts: make([]any, 0, len(m.Parts))}}
	switch m.Role {
	case a2a.MessageRoleUser:
		out.Message.Role = "user"
	case a2a.MessageRoleAgent:
		out.Message.Role = "agent"
	}
	for _, p := range m.Parts {
		switch c := p.Content.(type) {
		case a2a.Text:
			out.Message.Parts = append(out.Message.Parts, v03OutPart{Kind: "text", Text: string(c), Metadata: p.Metadata})
		case a2a.Raw:
			out.Message.Parts = append(out.Message.Parts, v03OutFilePart{Kind: "file", Metadata: p.Metadata,
				File: v03OutFile{Bytes: base64.StdEncoding.EncodeToString(c), MimeType: p.MediaType, Name: p.Filename}})
		default:
			return nil, fmt.Errorf("a %T part: Ananke sends A2A 0.3 agents text parts and files' bytes only", p.Content)
		}
	}
	if c := req.Config; c != nil {
		if c.PushConfig != nil {
			return nil, errors.New("a push notification configuration: Ananke sends A2A 0.3 agents none")
		}
		blocking := !c.ReturnImmediately
		out.Config = &v03SendConfig{AcceptedOutputModes: c.AcceptedOutputModes, Blocking: &blocking, HistoryLength: c.HistoryLength}
	}
	return out, nil
}
