package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/codequality"
	"github.com/ananke/action/reporters/jsonreport"
	"github.com/ananke/action/reporters/junit"
	"github.com/ananke/action/reporters/reportdir"
	"github.com/ananke/action/reporters/warningsng"
)

// reportFormat is one format `ananke report` writes: its --format name and
// its writer, given the report and the directory it was read from.
type reportFormat struct {
	name  string
	write func(w io.Writer, r *report.Report, dir string) error
}

// reportFormats are the formats of `ananke report --format`, each the
// bytes of the report directory's file of the same format (the markdown:
// what --summary writes).
var reportFormats = []reportFormat{
	{"codequality", func(w io.Writer, r *report.Report, _ string) error { return codequality.Write(w, r) }},
	{"warnings-ng", func(w io.Writer, r *report.Report, _ string) error { return warningsng.Write(w, r) }},
	{"junit", func(w io.Writer, r *report.Report, _ string) error { return junit.Write(w, r) }},
	{"markdown", func(w io.Writer, r *report.Report, dir string) error {
		_, err := io.WriteString(w, summaryMarkdown(r, dir))
		return err
	}},
	{"json", func(w io.Writer, r *report.Report, _ string) error { return jsonreport.WriteSummary(w, r) }},
}

// reportFormatNames lists the formats, for messages and completion.
func reportFormatNames() []string {
	var out []string
	for _, f := range reportFormats {
		out = append(out, f.name)
	}
	return out
}

// runReport is `ananke report --format F [-o FILE] [DIR]`: one format of
// an existing report directory (default ananke-report) on stdout or in
// FILE, for a pipeline that wants a format under a name of its own, or of
// a report made elsewhere (`ananke merge`'s, a downloaded artifact's). It
// exits 0 once the file is written, whatever the run's verdict: the run
// said that; 3 for a missing or unknown format, or a directory that is not
// a report; 2 when the output cannot be written.
func runReport(_ context.Context, a *app, args []string) error {
	names := reportFormatNames()
	fs := a.flags("report", "[DIR]")
	format := fs.String("format", "", "write the report as `format`: "+strings.Join(names, ", "))
	out := fs.String("output", "", "write to `file` rather than to standard output")
	alias(fs, "o", "output")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	var f *reportFormat
	for i := range reportFormats {
		if reportFormats[i].name == *format {
			f = &reportFormats[i]
		}
	}
	switch {
	case *format == "":
		return invalidf("report", "name a format with --format: %s", strings.Join(names, ", "))
	case f == nil:
		return invalidf("report", "--format %q: want %s", *format, strings.Join(names, ", "))
	case fs.NArg() > 1:
		return invalidf("report", "name one report directory")
	}
	dir := "ananke-report"
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	r, err := reportdir.Read(dir)
	if err != nil {
		return withCode(ExitInvalid, "report", err)
	}
	if *out == "" {
		if err := f.write(a.Out, r, dir); err != nil {
			return errorf("report", "write %s: %v", f.name, err)
		}
		return nil
	}
	if err := reportdir.WriteFile(*out, func(w io.Writer) error { return f.write(w, r, dir) }); err != nil {
		return errorf("report", "%v", err)
	}
	fmt.Fprintf(a.Out, "Wrote %s (%s) from %s\n", filepath.Clean(*out), f.name, filepath.Clean(dir))
	return nil
}
