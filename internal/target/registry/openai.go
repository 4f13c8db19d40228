package registry

import (
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/openai"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// openaiProtocol: an agent behind an OpenAI-compatible API, one request
// per turn plus a follow-up request per round of client tools
// (docs/openai.md).
var openaiProtocol = engine.Protocol{
	Open: openOpenAI,
	// The errors the API reports: an error answer (its status and
	// message), an error event, a failed response.
	Words: engine.Words{None: "no error from the API", NoneMessage: "the API reported no error", Name: "error",
		Message: "the API reported an error: ", Code: " (%s)"},
	Replayed: &trace.Source{Adapter: "openai", Mode: "replay", Capabilities: []string{capability.ToolTrace, capability.LiveRun, capability.Replay}},
}

// openOpenAI resolves the openai fields of the target and the test's
// history and client tools into a session.
func openOpenAI(a *engine.Setup) target.Session {
	tg := a.Target
	oa := tg.OpenAI
	if oa == nil { // a target made in code, not read from a file
		oa = &spec.OpenAITarget{API: spec.APIChat, Stream: true}
	}
	header := a.Header().Clone()
	if au := oa.Auth; au != nil {
		switch au.Scheme {
		case spec.AuthBearer:
			tok := a.Str(au.Token)
			header.Set("Authorization", "Bearer "+tok)
			a.Secret(tok)
		case spec.AuthAPIKey:
			v := a.Str(au.Value)
			header.Set(au.Name, v)
			a.Secret(v)
		}
	}
	o := openai.Options{
		Endpoint:     a.Endpoint(),
		API:          oa.API,
		Model:        a.Str(oa.Model),
		Stream:       oa.Stream,
		Instructions: a.Str(oa.Instructions),
		Header:       header,
		HTTP:         a.HTTP,
		History:      a.History(),
		Answers:      map[string]func(string) (string, bool){},
		MaxFollowups: tg.MaxFollowups,
		Timeout:      time.Duration(tg.TimeoutMs) * time.Millisecond,
		Now:          a.Now,
		NewID:        a.NewID,
	}
	if !oa.Body.IsZero() {
		o.Body = a.JSON(oa.Body, "{}")
	}
	for _, ct := range clientTools(a) {
		o.Tools = append(o.Tools, openai.Tool{Name: ct.Name, Description: ct.Description, Parameters: ct.Parameters})
		o.Answers[ct.Name] = ct.Answer
	}
	return openai.New(o)
}
