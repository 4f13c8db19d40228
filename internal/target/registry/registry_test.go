package registry_test

import (
	"slices"
	"testing"

	"github.com/ananke/action/internal/openai"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/target/registry"
	"github.com/ananke/action/internal/trace"
)

// TestEveryTargetTypeHasAProtocol: every target type a config may name is
// played by a protocol that opens sessions and names its errors, and a
// config without a type is an AG-UI target.
func TestEveryTargetTypeHasAProtocol(t *testing.T) {
	for _, typ := range spec.TargetTypes {
		p, ok := registry.Lookup(typ)
		if !ok || p.Open == nil || p.Words.None == "" || p.Words.Message == "" {
			t.Errorf("target type %s: protocol %+v, %v; want one that opens sessions and names the agent's errors", typ, p, ok)
		}
	}
	if _, ok := registry.Lookup("smtp"); ok {
		t.Error(`Lookup("smtp") found a protocol`)
	}
	untyped, _ := registry.Lookup("")
	agui, _ := registry.Lookup(spec.TargetAGUI)
	if untyped.Words != agui.Words {
		t.Errorf("a target without a type speaks %+v; want AG-UI's", untyped.Words)
	}
	if got := registry.Recordable(); !slices.Equal(got, []string{spec.TargetAGUI, spec.TargetOpenAI, spec.TargetHTTP}) || !registry.CanRecord("") || registry.CanRecord(spec.TargetMCP) {
		t.Errorf("Recordable() = %q; want agui, openai and http (untyped included, mcp not)", got)
	}
}

// TestTurnTypesAgree: the turn types a test file names are those the
// sessions play, the answers of its resume turns the trace's, and the
// APIs of its openai target the session's.
func TestTurnTypesAgree(t *testing.T) {
	for _, c := range [][2]string{
		{spec.TurnUser, target.TurnUser},
		{spec.TurnConnect, target.TurnConnect},
		{spec.TurnA2ASend, target.TurnA2ASend},
		{spec.TurnMCPCall, target.TurnMCPCall},
		{spec.TurnMCPList, target.TurnMCPList},
		{spec.TurnResume, target.TurnResume},
		// and the APIs an openai target speaks are the session's
		{spec.APIChat, openai.APIChat},
		{spec.APIResponses, openai.APIResponses},
		// and the answers a resume turn gives are the trace's
		{spec.AnswerApprove, trace.AnswerApprove},
		{spec.AnswerReject, trace.AnswerReject},
		{spec.AnswerEdit, trace.AnswerEdit},
	} {
		if c[0] != c[1] {
			t.Errorf("a test file's turn type %q is %q to the sessions", c[0], c[1])
		}
	}
	if n := len(spec.TurnTypes); n != 6 {
		t.Errorf("spec has %d turn types; this test compares 6", n)
	}
}
