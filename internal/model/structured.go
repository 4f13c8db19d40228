package model

import (
	"context"
	"errors"
	"fmt"
)

// Completer is what asks the model: *Client, or a fake in tests.
type Completer interface {
	Complete(ctx context.Context, req Request) (Reply, error)
}

// CompleteJSON asks m for an answer that accept takes, and once more when it
// does not: the second request carries the first answer and, as the user's
// reply, what was wrong with it followed by again (how to answer). An
// answer that is not JSON at all (Complete's ErrNotJSON) is asked for once
// more the same way. accept keeps what it parsed. The usage counts both
// requests. A transport or server error is returned as is; an answer that
// did not fit twice is an error wrapping the last complaint, which names
// the model and its endpoint when m is a *Client.
func CompleteJSON(ctx context.Context, m Completer, req Request, accept func(content string) error, again string) (Usage, error) {
	var usage Usage
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		reply, err := m.Complete(ctx, req)
		usage.Add(reply.Usage)
		switch {
		case errors.Is(err, ErrNotJSON):
			lastErr = notJSON(err)
		case err != nil:
			return usage, err
		default:
			lastErr = accept(reply.Content)
		}
		if lastErr == nil {
			return usage, nil
		}
		req.Messages = append(req.Messages[:len(req.Messages):len(req.Messages)],
			Message{Role: "assistant", Content: reply.Content},
			Message{Role: "user", Content: fmt.Sprintf("That answer does not fit the required JSON (%v). %s", lastErr, again)})
	}
	const twice = "its answer did not fit the required JSON, twice: "
	if c, ok := m.(*Client); ok {
		return usage, c.newError(&failure{kind: KindMalformed, detail: twice + lastErr.Error(), err: lastErr}, usage.Requests)
	}
	return usage, fmt.Errorf(twice+"%w", lastErr)
}

// notJSON is what was wrong with an answer Complete refused as not JSON:
// "the reply is not JSON: …", without the "model m at e:" of its Error.
func notJSON(err error) error {
	var e *Error
	if errors.As(err, &e) && e.Err != nil {
		return e.Err
	}
	return err
}
