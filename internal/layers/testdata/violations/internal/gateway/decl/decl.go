// Package decl is a backend server's file model: the file model may
// depend on it.
package decl

// Mode is a mode.
const Mode = "replay"
