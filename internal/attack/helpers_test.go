package attack_test

import (
	"path/filepath"
	"strconv"

	"github.com/ananke/action/internal/cost"
)

// spend is a turn's usage of n input tokens.
func spend(n int64) *cost.Spend {
	var tok cost.Tokens
	tok.Set(cost.Input, n)
	s := &cost.Spend{}
	s.Add(cost.Usage{Model: "m", Tokens: tok})
	return s
}

// tokens are the input tokens of s (-1: none known).
func tokens(s *cost.Spend) int64 {
	if n, ok := s.Tokens().Get(cost.Input); ok {
		return n
	}
	return -1
}

func absDir(dir string) (string, error) { return filepath.Abs(dir) }

func itoa(i int) string { return strconv.Itoa(i) }
