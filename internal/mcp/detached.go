package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// detached connects a transport whose connection lives on the context it
// was connected with — the legacy SSE transport's event stream is the
// GET request made in Connect — with a context of the session's life, so
// that the stream outlives Dial's deadline but not the session. Dial's
// deadline still bounds the connecting.
type detached struct {
	t    sdk.Transport
	life context.Context
	end  context.CancelFunc // ends life
}

func (d *detached) Connect(ctx context.Context) (sdk.Connection, error) {
	stop := context.AfterFunc(ctx, d.end)
	c, err := d.t.Connect(d.life)
	if !stop() {
		// ctx ended while connecting, and with it the stream.
		if err == nil {
			c.Close()
		}
		return nil, context.Cause(ctx)
	}
	return c, err
}
