// Package env reads the process: violations.
package env

import (
	"fmt"
	o "os"
)

// Get reads the environment and the standard output, and prints.
func Get() (string, any) {
	fmt.Println("x")
	var x string
	x = o.Getenv("X")
	return x, o.Stdout
}
