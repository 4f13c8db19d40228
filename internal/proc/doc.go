// Package proc starts child processes in their own process group so that
// everything they start — children, grandchildren, background jobs — can be
// stopped together. Hooks and target.server both need it: a hook that
// forks a grandchild, or a `go run` that starts the real server binary, must
// not outlive Ananke.
package proc
