package model

import (
	"context"
	"fmt"
)

// Completer is what asks the model: *Client, or a fake in tests.
type Completer interface {
	Complete(ctx context.Context, req Request) (Reply, error)
}

// CompleteJSON asks m for an answer that accept takes, and once more when it
// does not: the second request carries the first answer and, as the user's
// reply, what was wrong with it followed by again (how to answer). accept
// keeps what it parsed. The usage counts both requests. A transport or
// server error is returned as is; an answer that did not fit twice is an
// error wrapping accept's last complaint.
func CompleteJSON(ctx context.Context, m Completer, req Request, accept func(content string) error, again string) (Usage, error) {
	var usage Usage
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		reply, err := m.Complete(ctx, req)
		usage.Add(reply.Usage)
		if err != nil {
			return usage, err
		}
		if lastErr = accept(reply.Content); lastErr == nil {
			return usage, nil
		}
		req.Messages = append(req.Messages[:len(req.Messages):len(req.Messages)],
			Message{Role: "assistant", Content: reply.Content},
			Message{Role: "user", Content: fmt.Sprintf("That answer does not fit the required JSON (%v). %s", lastErr, again)})
	}
	return usage, fmt.Errorf("its answer did not fit the required JSON, twice: %w", lastErr)
}
