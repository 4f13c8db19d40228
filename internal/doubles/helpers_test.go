package doubles

import (
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/doubles/decl/decltest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/doubles/decl"
)

// serverFixture reads testdata/server: the config's doubles and the plans
// of tests "a" and "b".
func serverFixture(t testing.TB) (*decl.Config, map[string]*decl.Plan) {
	t.Helper()
	var diags diag.Diagnostics
	d, root := decltest.ParseFile(t, "testdata/server/config.yaml", &diags)
	c := decl.ReadConfig(d, decltest.Member(root, "doubles"))
	plans := map[string]*decl.Plan{}
	for _, id := range []string{"a", "b"} {
		d, root := decltest.ParseFile(t, filepath.Join("testdata/server", id+".yaml"), &diags)
		turns := map[int]decl.Answers{}
		if n := decltest.Member(root, "turns"); n != nil {
			for i, turn := range n.Content {
				if m := decltest.Member(turn, "doubles"); m != nil {
					turns[i] = decl.ReadAnswers(d, m, decode.Index("turns", i)+".doubles")
				}
			}
		}
		plans[id] = decl.NewPlan(decl.ReadAnswers(d, decltest.Member(root, "doubles"), "doubles"), turns)
		decl.Check(c, plans[id], &diags)
	}
	if len(diags) > 0 {
		t.Fatalf("fixture: %v", diags)
	}
	return c, plans
}

// stepClock is a clock that moves a millisecond at each reading, from a
// fixed time.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func newStepClock() *stepClock { return &stepClock{t: time.UnixMilli(1_000_000)} }

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// headerTransport sends the backend header with a token on every request.
type headerTransport struct {
	token string
	next  http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if h.token == "" {
		return h.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set(backend.Header, h.token)
	return h.next.RoundTrip(r)
}

// connect is an MCP client session with the doubles at url, sending
// token in the backend header ("" for none), over rt (the network when
// nil).
func connect(t testing.TB, url, token string, rt http.RoundTripper) *sdk.ClientSession {
	t.Helper()
	if rt == nil {
		rt = http.DefaultTransport
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil)
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{token, rt}}, MaxRetries: -1, DisableStandaloneSSE: true}
	cs, err := c.Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}
