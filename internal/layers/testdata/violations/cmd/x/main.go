// Command x exits.
package main

import "os"

func main() { os.Exit(0) }
