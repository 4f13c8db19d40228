// Package agui is a protocol.
package agui

// Name is a name.
const Name = "agui"
