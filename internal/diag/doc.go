// Package diag holds positions in the files Ananke reads (file:line:col)
// and the problems found at them. Loading collects every problem of every
// file into Diagnostics and reports them at once, sorted.
package diag
