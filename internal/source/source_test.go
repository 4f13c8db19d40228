package source

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/spec"
)

// TestLoadOTLP: a test's otlp source is read by the OTLP file reader.
func TestLoadOTLP(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("otlpfile", "testdata", "collector.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Load(context.Background(), &spec.Source{Format: spec.FormatOTLP, Path: "traces/collector.jsonl", Abs: abs})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.Adapter != "otlp" || tr.Source.Path != "traces/collector.jsonl" || len(tr.Turns) != 2 || len(tr.Spans) != 4 {
		t.Errorf("source %+v, %d turns, %d spans", tr.Source, len(tr.Turns), len(tr.Spans))
	}
	_, err = Load(context.Background(), &spec.Source{Format: spec.FormatOTLP, Path: "gone.json", Abs: filepath.Join(t.TempDir(), "gone.json")})
	if err == nil || err.Error() != "gone.json: no such file or directory" {
		t.Errorf("err = %v", err)
	}
}
