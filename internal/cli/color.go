package cli

import (
	"flag"
	"fmt"
)

// colorMode is --color: auto (the default), always or never.
type colorMode string

func (c *colorMode) String() string { return string(*c) }

func (c *colorMode) Set(s string) error {
	switch s {
	case "auto", "always", "never":
		*c = colorMode(s)
		return nil
	}
	return fmt.Errorf("want auto, always or never")
}

// addColorFlag adds --color to a command's flags.
func addColorFlag(fs *flag.FlagSet, c *colorMode) {
	*c = "auto"
	fs.Var(c, "color", "colour the status marks: `when` = auto (a terminal or a GitHub Actions log, unless NO_COLOR is set), always or never")
}

// colored decides whether the console output is coloured: --color always
// or never wins; auto colours a terminal and a GitHub Actions log (which
// renders ANSI colours), and nothing when NO_COLOR is set to a non-empty
// value (no-color.org) or the output is piped.
func (a *app) colored(c colorMode) bool {
	switch c {
	case "always":
		return true
	case "never":
		return false
	}
	if a.getenv("NO_COLOR") != "" {
		return false
	}
	return a.OutIsTerminal || a.getenv("GITHUB_ACTIONS") == "true"
}
