// Package decode reads the YAML of Ananke's files with positions: a
// Decoder walks the yaml.Node tree of one file, checks each value's
// shape (mappings of known fields, lists, scalars, names, templates,
// regexes, free-form values, the file's version) and records every problem
// at its file:line:col instead of stopping at the first.
//
// The file model (internal/spec) reads configs, test files and datasets
// with it, and each assertion kind (internal/assertion) reads its part of
// an assert block with it.
package decode
