package model

// Message is one chat message. Role is "system", "user" or "assistant".
type Message struct{ Role, Content string }

// Request is one chat completion to ask for.
type Request struct {
	Messages []Message
	// SchemaName and Schema, when Schema is set, ask for structured output:
	// response_format json_schema, strict; the reply's content must then be JSON.
	// The content is not validated against the schema here: callers do, with
	// their own diagnostics.
	SchemaName string
	Schema     map[string]any
}

// Reply is the model's answer to one Request.
type Reply struct {
	Content string
	Usage   Usage // of this call: a cache hit has CacheHits 1 and no tokens, no requests
}

// Usage counts what calls to the model cost, so that a run can report it.
type Usage struct {
	Requests         int   `json:"requests"` // HTTP requests sent to the endpoint (retries count)
	CacheHits        int   `json:"cache_hits"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// Unreported counts the replies whose endpoint reported no usage:
	// their tokens are unknown, so the counts above are lower bounds.
	Unreported int `json:"unreported,omitempty"`
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.Requests += o.Requests
	u.CacheHits += o.CacheHits
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
	u.Unreported += o.Unreported
}

// IsZero reports whether nothing was used, so reports can leave usage out.
func (u Usage) IsZero() bool { return u == Usage{} }
