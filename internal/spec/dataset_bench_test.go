package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/diag"
)

// BenchmarkLoadDataset loads a 10,000-case dataset: every line parsed,
// rewritten and checked (docs/development.md records the figure).
func BenchmarkLoadDataset(b *testing.B) {
	dir := b.TempDir()
	var lines []string
	for i := range 10_000 {
		lines = append(lines, fmt.Sprintf(`{"id": "c%d", "input": [{"role": "user", "content": "my name is Ada"}, {"role": "assistant", "content": "Hi Ada"}, {"role": "user", "content": "What is the weather in Paris? %d"}], "assertions": [{"type": "tool_called", "name": "get_weather", "args": {"city": "Paris"}}, {"type": "contains", "value": "21°C"}, {"type": "regex", "pattern": "(?i)sunny"}, {"type": "not_tool_called", "name": "delete_order"}, {"type": "json_path", "path": "$.status", "value": "ok"}], "tags": ["weather"]}`, i, i))
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	p := filepath.Join(dir, "d.ananke.jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		var diags diag.Diagnostics
		tests := LoadDataset(p, dir, &diags)
		resolveExtends(&Config{}, tests, &diags)
		if len(diags) > 0 || len(tests) != 10_000 {
			b.Fatalf("%d tests, %v", len(tests), diags)
		}
	}
}
