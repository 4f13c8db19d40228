// Package vars holds what the strings of Ananke's files become: Templates,
// which may reference ${NAME} (a variable a hook set) and ${ENV.NAME} (an
// environment variable, a secret); Regexes and free-form Values built on
// them; Names, which may not reference anything; and the Vars of one test
// run, which resolve them and remember the secrets they read.
//
// References are parsed when a file is loaded (their positions are exact)
// and resolved when a test runs.
package vars
