package vars

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/ananke/action/internal/diag"
)

// Vars is the variable map of one test run: values set by hooks, and the
// process environment for ${ENV.NAME}. Every value read from the environment
// is remembered as a secret, to be masked in every output — but where it
// fills a URL field (Template.ResolveURL), whose password and query values
// are the secrets instead.
type Vars struct {
	getenv func(string) (string, bool)

	mu      sync.Mutex
	values  map[string]string
	secrets map[string]bool
}

// NewVars returns an empty variable map reading the environment through
// getenv (nil: no environment).
func NewVars(getenv func(string) (string, bool)) *Vars {
	if getenv == nil {
		getenv = func(string) (string, bool) { return "", false }
	}
	return &Vars{getenv: getenv, values: map[string]string{}, secrets: map[string]bool{}}
}

// Set defines a variable; later values replace earlier ones.
func (v *Vars) Set(name, value string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.values[name] = value
}

// Secrets returns the secrets met so far, sorted: every non-empty value
// read from the environment outside a URL field, and those of URL fields.
func (v *Vars) Secrets() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Sorted(maps.Keys(v.secrets))
}

// ResolveError is a reference that could not be resolved, at its position.
type ResolveError struct {
	Pos diag.Pos
	Msg string
}

func (e *ResolveError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Lookup resolves r, remembering an environment variable's value as a
// secret.
func (v *Vars) Lookup(r Ref) (string, error) {
	val, err := v.get(r)
	if err == nil && r.Env {
		v.secret(val)
	}
	return val, err
}

// secret remembers val as a secret (an empty value is none).
func (v *Vars) secret(val string) {
	if val == "" {
		return
	}
	v.mu.Lock()
	v.secrets[val] = true
	v.mu.Unlock()
}

// get resolves r without remembering anything.
func (v *Vars) get(r Ref) (string, error) {
	if r.Env {
		val, ok := v.getenv(r.Name)
		if !ok {
			return "", &ResolveError{r.Pos, fmt.Sprintf("environment variable %s is not set (referenced as %s)", r.Name, r)}
		}
		return val, nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	val, ok := v.values[r.Name]
	if !ok {
		known := "no hook set any variable"
		if len(v.values) > 0 {
			known = "defined: " + strings.Join(slices.Sorted(maps.Keys(v.values)), ", ")
		}
		return "", &ResolveError{r.Pos, fmt.Sprintf("unknown variable %s (%s; environment variables are ${ENV.NAME})", r, known)}
	}
	return val, nil
}
