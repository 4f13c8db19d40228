package doubles

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/backend"
)

// TestServeParallel: with the header forwarded, attempts of two tests
// bound at once each get the calls that name them, answered from their
// own test's plan, and none of another's — though every agent calls at
// the same time.
func TestServeParallel(t *testing.T) {
	const attempts, calls = 8, 10
	board := backend.NewBoard(true, func(string) bool { return true })
	url := serveOver(t, board, newStepClock().Now)
	bindings := make([]*backend.Binding, attempts)
	sessions := make([]*sdk.ClientSession, attempts)
	for i := range bindings {
		bindings[i] = board.Bind([]string{"a", "b"}[i%2])
		defer bindings[i].Release()
		sessions[i] = connect(t, url, bindings[i].Token, nil)
		defer sessions[i].Close()
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, attempts*calls)
	for i, cs := range sessions {
		for n := range calls {
			wg.Go(func() {
				<-start
				res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "place_order", Arguments: map[string]any{"who": bindings[i].Token, "n": n}})
				switch {
				case err != nil:
					errs <- err
				case res.IsError:
					errs <- fmt.Errorf("%s: %s", bindings[i].Token, res.Content[0].(*sdk.TextContent).Text)
				case !strings.Contains(res.Content[0].(*sdk.TextContent).Text, `"test":"`+bindings[i].TestID+`"`):
					errs <- fmt.Errorf("%s (test %s) got %s", bindings[i].Token, bindings[i].TestID, res.Content[0].(*sdk.TextContent).Text)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, bd := range bindings {
		got, _ := bd.Take(0)
		if len(got) != calls {
			t.Errorf("%s got %d calls, want %d", bd.Token, len(got), calls)
		}
		seen := map[float64]bool{}
		for _, c := range got {
			var args struct {
				Who string  `json:"who"`
				N   float64 `json:"n"`
			}
			_ = json.Unmarshal([]byte(c.Args), &args)
			if args.Who != bd.Token || seen[args.N] || c.Served.Answer != "test" || !strings.Contains(c.Result.Content, `\"test\":\"`+bd.TestID+`\"`) {
				t.Errorf("%s (test %s) recorded %s answered by %s: %s", bd.Token, bd.TestID, c.Args, c.Served.Answer, c.Result.Content)
			}
			seen[args.N] = true
		}
	}
	if o := board.Orphans(); len(o) > 0 {
		t.Errorf("orphans: %+v", o)
	}
}
