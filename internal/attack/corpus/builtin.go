package corpus

import (
	_ "embed"
	"slices"
	"sync"

	"github.com/ananke/action/internal/diag"
)

// builtinFile is the built-in corpus, written for this project: each goal
// in a few styles (docs/attacks.md).
//
//go:embed builtin.jsonl
var builtinFile []byte

// builtin reads the built-in corpus once. It goes through Read's checks,
// and a test holds it free of problems; one here is a broken build.
var builtin = sync.OnceValue(func() []Attack {
	var diags diag.Diagnostics
	out := Read("builtin.jsonl", builtinFile, &diags)
	if len(diags) > 0 {
		panic("corpus: the built-in corpus has problems:\n" + diags.Error())
	}
	for i := range out {
		out[i].Source, out[i].Pos = Builtin, diag.Pos{}
	}
	return out
})

// BuiltinAttacks returns the built-in corpus, in its file's order; the
// caller may change what it gets.
func BuiltinAttacks() []Attack {
	out := slices.Clone(builtin())
	for i := range out {
		out[i].Channels = slices.Clone(out[i].Channels)
	}
	return out
}
