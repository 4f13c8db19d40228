// Package mcp is a protocol.
package mcp

// Name is a name.
const Name = "mcp"
