package spec

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// AdHocID is the id of the test `ananke run -i "message"` makes.
const AdHocID = "adhoc"

// DefaultAgentID is the agentId of the target Ananke makes for --endpoint
// when there is no config file.
const DefaultAgentID = "ananke"

// defaultConfig is the config of a run without a config file: an AG-UI
// target at endpoint, every default in place.
func defaultConfig(endpoint string) *Config {
	return &Config{Path: "", Dir: ".", Target: Target{Type: "agui", Endpoint: vars.Literal(endpoint), AgentID: vars.Literal(DefaultAgentID),
		TimeoutMs: DefaultRunTimeoutMs, ProtocolVersion: DefaultProtocolVersion, MaxFollowups: DefaultMaxFollowups}}
}

// checkEndpoint reports an --endpoint that is not an http(s) URL.
func checkEndpoint(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--endpoint %q is not an http:// or https:// URL", endpoint)
	}
	return nil
}

// adHocTest is the one test of `ananke run -i "message"`: the message as
// one user turn, checked by the target's assertions.
func adHocTest(cfg *Config, message string) *Test {
	file := cfg.Path
	if file == "" {
		file = "-i"
	}
	pos := diag.Pos{File: file, Line: 1, Col: 1}
	name := strings.Join(strings.Fields(message), " ")
	return &Test{Path: file, Pos: pos, ID: AdHocID, Name: vars.Name{Value: "-i " + shorten(name, 60), Pos: pos},
		Turns: []Turn{{Pos: pos, Type: TurnUser, User: vars.Literal(message)}}}
}
