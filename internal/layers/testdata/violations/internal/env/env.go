// Package env reads the process: violations.
package env

import o "os"

// Get reads the environment and the standard output.
func Get() (string, any) {
	var x string
	x = o.Getenv("X")
	return x, o.Stdout
}
