//go:build unix

package interop

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/interop/peer"
)

// otel: the Mastra agent of mastra-parallel, traced (mastra-otel), sends
// its spans to Ananke's receiver while four tests run at once: each
// attempt's trace file holds the spans of its own trace — its tool span's
// arguments name its own SKU — nested under its request, the spans:
// checks pass on them, and a check of a tool span the agent never made
// fails at its line.
func (b backendRun) otel(t *testing.T) {
	reports := t.TempDir()
	cfg := filepath.Join(b.dir, "mastra-otel")
	exit, out := b.run(t, b.aimock, "run", "-c", filepath.Join(cfg, "ananke.config.yaml"), "-o", reports, "--parallel", "4", cfg)
	defer logOnFailure(t, out)
	if exit != 1 {
		t.Errorf("exit %d, want 1 (wrong-span fails)", exit)
	}
	validateReports(t, reports)
	var sum struct {
		Tests []struct {
			ID, Status, Reason string
			TraceFile          string `json:"trace_file"`
			TraceID            string `json:"trace_id"`
			Assertions         []struct {
				ID     string `json:"id"`
				Status string `json:"status"`
				Source struct {
					Line int `json:"line"`
				} `json:"source"`
			} `json:"assertions"`
		} `json:"tests"`
		Warnings []struct{ Rule, Message string } `json:"warnings"`
	}
	raw, err := os.ReadFile(filepath.Join(reports, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Tests) != 5 {
		t.Fatalf("%d tests, want 5", len(sum.Tests))
	}
	for _, w := range sum.Warnings {
		if w.Rule == "otel" {
			t.Errorf("run warning: %s", w.Message)
		}
	}
	for _, tc := range sum.Tests {
		var failed []string
		for _, a := range tc.Assertions {
			if a.Status == "fail" {
				failed = append(failed, fmt.Sprintf("%s at line %d", a.ID, a.Source.Line))
			}
		}
		if tc.ID == "wrong-span" {
			if tc.Status != "fail" || strings.Join(failed, "; ") != "turn[0].spans.require[0] at line 11" {
				t.Errorf("wrong-span: %s, failed %q; want turn[0].spans.require[0] at line 11", tc.Status, failed)
			}
			continue
		}
		if tc.Status != "pass" {
			t.Errorf("%s: %s %s, failed %q", tc.ID, tc.Status, tc.Reason, failed)
		}
		sku := "A-1"
		if tc.ID == "stock-2" || tc.ID == "stock-4" {
			sku = "B-2"
		}
		spans := traceSpans(t, filepath.Join(reports, tc.TraceFile))
		if len(spans.Spans) == 0 || !spans.Receiver || spans.TraceID != tc.TraceID {
			t.Errorf("%s: %d spans, receiver %v, trace %s (summary %s)", tc.ID, len(spans.Spans), spans.Receiver, spans.TraceID, tc.TraceID)
		}
		tools := 0
		for _, s := range spans.Spans {
			if s.TraceID != spans.TraceID || s.Turn != 0 {
				t.Errorf("%s: span %q of trace %s, turn %d", tc.ID, s.Name, s.TraceID, s.Turn)
			}
			if strings.HasPrefix(s.Name, "execute_tool") {
				tools++
				if args, _ := s.Attributes["gen_ai.tool.call.arguments"].(string); !strings.Contains(args, `"sku":"`+sku+`"`) {
					t.Errorf("%s: a tool span with arguments %q, want its own SKU %s", tc.ID, args, sku)
				}
			}
		}
		if tools != 1 {
			t.Errorf("%s: %d tool spans, want 1", tc.ID, tools)
		}
	}
}

// traceSpans reads the head of a trace file: its trace id and the agent's
// spans.
func traceSpans(t *testing.T, path string) (head struct {
	TraceID  string `json:"trace_id"`
	Receiver bool   `json:"otel_receiver"`
	Spans    []struct {
		TraceID    string         `json:"trace_id"`
		Name       string         `json:"name"`
		Turn       int            `json:"turn"`
		Attributes map[string]any `json:"attributes"`
	} `json:"spans"`
}) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&head); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return head
}

// TestOTelA2A: the scripted A2A agent, traced (a2a-otel), streams no tool
// call: the check_stock call and the model's usage its spans show join
// each turn, so tools.require and budgets are checked on them, two tests
// at a time, each on its own spans.
func TestOTelA2A(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := peer.Dir()
	peer.Node(t, filepath.Join("@opentelemetry", "sdk-trace-node"))
	bin := filepath.Join(t.TempDir(), "ananke")
	build := exec.Command("go", "build", "-o", bin, root)
	build.Dir = root
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	reports := t.TempDir()
	cfg := filepath.Join(dir, "a2a-otel")
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", "-c", filepath.Join(cfg, "ananke.config.yaml"), "-o", reports, "--parallel", "2", cfg)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "A2A_OTEL_PORT="+strconv.Itoa(freePort(t)))
	raw, err := cmd.CombinedOutput()
	out := string(raw)
	defer logOnFailure(t, out)
	if err != nil {
		t.Fatalf("ananke run: %v", err)
	}
	validateReports(t, reports)
	sum := readBackendSummary(t, reports)
	if len(sum.Tests) != 2 {
		t.Fatalf("%d tests, want 2", len(sum.Tests))
	}
	for _, tc := range sum.Tests {
		if tc.Status != "pass" || len(tc.Turns) != 1 {
			t.Errorf("%s: %s (%s), %d turns", tc.ID, tc.Status, tc.Reason, len(tc.Turns))
			continue
		}
		calls := tc.Turns[0].ToolCalls
		if len(calls) != 1 || calls[0].Name != "check_stock" || calls[0].Source != "spans" {
			t.Errorf("%s: tool calls %+v; want check_stock found in spans", tc.ID, calls)
		}
		if tc.Usage == nil || tc.Usage.Tokens.Total == nil || *tc.Usage.Tokens.Total == 0 {
			t.Errorf("%s: no usage from the spans", tc.ID)
		}
	}
}
