// Package console is a reporter.
package console

// Name is a name.
const Name = "console"
