//go:build unix

package mcp

import (
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/interop/peer"
)

// everything returns node and the entry point of
// @modelcontextprotocol/server-everything, failing the test when either is
// missing: the tests need the real server.
func everything(t *testing.T) (node, entry string) {
	t.Helper()
	node = peer.Node(t, filepath.Join("@modelcontextprotocol", "server-everything"))
	return node, filepath.Join(peer.Dir(), "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

// stdioOptions runs server-everything over stdio.
func stdioOptions(t *testing.T) Options {
	node, entry := everything(t)
	return Options{Transport: TransportStdio, Command: []string{node, entry, "stdio"}}
}

// startHTTP starts server-everything's transport mode ("streamableHttp"
// or "sse") on a free loopback port and returns its base URL; the server
// is stopped when the test ends. server-everything listens on every
// interface and prints the port it was given: the preload binds it to
// loopback and prints the port it got.
func startHTTP(t *testing.T, mode string) string {
	t.Helper()
	node, entry := everything(t)
	preload, err := filepath.Abs(filepath.Join("testdata", "loopback.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	return peer.MustStart(t, peer.Dir(), []string{"PORT=0"}, node, "--import", preload, entry, mode).URL
}
