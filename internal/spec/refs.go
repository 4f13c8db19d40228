package spec

import (
	"slices"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// Static checks of ${NAME} references. Hook variables are only known once
// the hooks ran, but some references can never resolve, and those are
// reported at load time so that nothing is sent to the agent:
//   - any ${NAME} in a test without hooks (or in its first hook's command),
//     unless the config has before_all hooks, whose variables every test sees;
//   - any ${NAME} in the config when some test has no hooks (and there is
//     no before_all hook);
//   - any ${NAME} in the first before_all hook, in after_all without
//     before_all, and in target.server, which starts before every hook.
// ${ENV.NAME} is checked when a run starts (see CheckEnv), because
// `ananke validate` often runs where CI secrets are not set.

func checkStaticRefs(cfg *Config, tests []*Test, diags *diag.Diagnostics) {
	if len(cfg.BeforeAll) > 0 {
		for _, r := range templateRefs(cfg.BeforeAll[0].Cmd...) {
			if !r.Env {
				diags.Add(r.Pos, "unknown variable %s: the first before_all hook runs before any hook has set a variable", r)
			}
		}
		// Any variable may come from before_all; the run says which one
		// is missing.
		return
	}
	for _, h := range cfg.AfterAll {
		for _, r := range templateRefs(h.Cmd...) {
			if !r.Env {
				diags.Add(r.Pos, "unknown variable %s: only before_all hooks set variables after_all sees (environment variables are ${ENV.NAME})", r)
			}
		}
	}
	for _, t := range tests {
		refs := t.refs()
		if len(t.Hooks) > 0 {
			refs = templateRefs(t.Hooks[0].Cmd...)
		}
		for _, r := range refs {
			if !r.Env && !attemptVar(r) {
				diags.Add(r.Pos, "unknown variable %s: %s", r, noHookReason(t))
			}
		}
	}
}

// attemptVar reports whether r names a variable every attempt has before
// its hooks run: ${ANANKE_TEST}, its token for Ananke's backend
// (docs/backend.md).
func attemptVar(r vars.Ref) bool { return r.Name == backend.Var }

func noHookReason(t *Test) string {
	if len(t.Hooks) == 0 {
		return "this test has no hooks to set it (environment variables are ${ENV.NAME})"
	}
	return "the first hook runs before any hook has set a variable"
}

// checkConfigRefs reports config references that no hook can set for some
// test.
func checkConfigRefs(cfg *Config, tests []*Test, diags *diag.Diagnostics) {
	targets := cfg.targets()
	for _, t := range targets {
		if s := t.Server; s != nil {
			for _, r := range s.refs() {
				if !r.Env {
					diags.Add(r.Pos, "unknown variable %s: target.server starts before any hook runs (environment variables are ${ENV.NAME})", r)
				}
			}
		}
	}
	var hookless *Test
	for _, t := range tests {
		if len(t.Hooks) == 0 {
			hookless = t
			break
		}
	}
	if hookless == nil || len(cfg.BeforeAll) > 0 {
		return
	}
	for _, t := range targets {
		for _, r := range t.refs() {
			if !r.Env && !attemptVar(r) {
				diags.Add(r.Pos, "unknown variable %s: test %s has no hooks to set it", r, hookless.Path)
			}
		}
	}
}

// targets are the config's target and each variant's, which share the
// nodes a variant leaves alone (their problems are reported once, as
// diag.Diagnostics.Sorted drops repeats).
func (c *Config) targets() []*Target {
	out := []*Target{&c.Target}
	for _, v := range c.Variants {
		if v.Target != nil {
			out = append(out, v.Target)
		}
	}
	return out
}

// CheckEnv reports every ${ENV.NAME} of the config and tests that is not set.
func CheckEnv(s *Suite, getenv func(string) (string, bool)) diag.Diagnostics {
	var diags diag.Diagnostics
	seen := map[diag.Pos]bool{}
	for _, r := range envRefs(s) {
		if _, ok := getenv(r.Name); !ok && !seen[r.Pos] {
			seen[r.Pos] = true
			diags.Add(r.Pos, "environment variable %s is not set (referenced as %s)", r.Name, r)
		}
	}
	return diags.Sorted()
}

// EnvSecrets returns the secrets the suite reads from the environment
// (skipped tests excluded), for masking before anything is printed: the
// value of every ${ENV.NAME} outside a URL field, and the secrets of each
// URL field (Template.ResolveURL). A URL field that a hook variable fills
// too cannot be resolved before the run: its environment values count
// whole. An unset variable is left to CheckEnv.
func EnvSecrets(s *Suite, getenv func(string) (string, bool)) []string {
	vs := vars.NewVars(getenv)
	inURL := map[diag.Pos]bool{}
	for _, t := range urlFields(s.Config) {
		refs := t.Refs()
		if slices.ContainsFunc(refs, func(r vars.Ref) bool { return !r.Env }) {
			continue
		}
		for _, r := range refs {
			inURL[r.Pos] = true
		}
		_, _ = t.ResolveURL(vs)
	}
	for _, r := range envRefs(s) {
		if !inURL[r.Pos] {
			_, _ = vs.Lookup(r)
		}
	}
	return vs.Secrets()
}

// urlFields are the config's URL fields: their ${ENV.NAME} values are not
// secrets as a whole, their passwords and query values are.
func urlFields(c *Config) []vars.Template {
	var out []vars.Template
	for _, t := range c.targets() {
		out = append(out, t.Endpoint)
		if s := t.Server; s != nil {
			out = append(out, s.ReadyURL)
		}
		if a := t.A2A; a != nil {
			out = append(out, a.AgentCardURL)
		}
	}
	return out
}

// envRefs lists every ${ENV.NAME} of the config and of the tests that run.
func envRefs(s *Suite) []vars.Ref {
	var refs []vars.Ref
	for _, t := range s.Config.targets() {
		refs = append(refs, t.refs()...)
		if t.Server != nil {
			refs = append(refs, t.Server.refs()...)
		}
	}
	for _, h := range append(slices.Clone(s.Config.BeforeAll), s.Config.AfterAll...) {
		refs = append(refs, templateRefs(h.Cmd...)...)
	}
	for _, t := range s.Tests {
		if t.Skip != "" {
			continue
		}
		refs = append(refs, t.refs()...)
		for _, h := range t.Hooks {
			refs = append(refs, templateRefs(h.Cmd...)...)
		}
	}
	var env []vars.Ref
	for _, r := range refs {
		if r.Env {
			env = append(env, r)
		}
	}
	return env
}

func templateRefs(ts ...vars.Template) []vars.Ref {
	var refs []vars.Ref
	for _, t := range ts {
		refs = append(refs, t.Refs()...)
	}
	return refs
}

// refs lists the references of every test value except hook commands.
func (t *Test) refs() []vars.Ref {
	var refs []vars.Ref
	for _, h := range t.After {
		refs = append(refs, templateRefs(h.Cmd...)...)
	}
	refs = append(refs, t.ForwardedProps.Refs()...)
	for _, m := range t.History {
		refs = append(refs, m.Content.Refs()...)
	}
	for _, ct := range t.Tools {
		refs = append(refs, ct.Description.Refs()...)
		refs = append(refs, ct.Parameters.Refs()...)
		if ct.Result != nil {
			refs = append(refs, ct.Result.Refs()...)
		}
		for _, r := range ct.Results {
			refs = append(refs, r.Result.Refs()...)
			refs = append(refs, assertion.ArgsRefs(r.ArgsMatch)...)
		}
	}
	for _, turn := range t.Turns {
		refs = append(refs, turn.User.Refs()...)
		refs = append(refs, turn.Tool.Refs()...)
		refs = append(refs, turn.Arguments.Refs()...)
		for _, e := range turn.Resume {
			refs = append(refs, e.Payload.Refs()...)
			refs = append(refs, e.Edit.Refs()...)
		}
		refs = append(refs, turn.Assert.Refs()...)
	}
	if s := t.Simulator; s != nil {
		refs = append(refs, templateRefs(s.Persona, s.Goal, s.Instructions)...)
	}
	for _, c := range t.Checkpoints {
		refs = append(refs, c.Assert.Refs()...)
	}
	return append(refs, t.Assert.Refs()...)
}

// refs lists the references of the target, except target.server.
func (t *Target) refs() []vars.Ref {
	refs := templateRefs(t.Endpoint, t.AgentID, t.ThreadID)
	for _, h := range t.Headers {
		refs = append(refs, h.Value.Refs()...)
	}
	if h := t.HTTP; h != nil {
		// The session sets an http target's per-turn variables (the
		// loader reported those in fields resolved once).
		refs = notPerTurn(append(refs, h.refs()...))
	}
	refs = append(refs, t.ForwardedProps.Refs()...)
	refs = append(refs, t.State.Refs()...)
	if a := t.A2A; a != nil {
		refs = append(refs, templateRefs(a.AgentCardURL, a.ContextID)...)
		refs = append(refs, a.AgentCard.Refs()...)
		if a.Auth != nil {
			refs = append(refs, templateRefs(a.Auth.Value, a.Auth.Token, a.Auth.ClientID, a.Auth.ClientSecret, a.Auth.TokenURL)...)
		}
	}
	if m := t.MCP; m != nil {
		refs = append(refs, templateRefs(m.Command...)...)
		refs = append(refs, m.Cwd.Refs()...)
		for _, e := range m.Env {
			refs = append(refs, e.Value.Refs()...)
		}
	}
	return append(refs, t.Assert.Refs()...)
}

func (s *Server) refs() []vars.Ref {
	refs := templateRefs(s.Command...)
	refs = append(refs, templateRefs(s.Cwd, s.ReadyURL)...)
	for _, e := range s.Env {
		refs = append(refs, e.Value.Refs()...)
	}
	if s.ReadyLog != nil {
		refs = append(refs, s.ReadyLog.Refs()...)
	}
	return refs
}
