package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRun starts the real server on a free port, waits for the
// "listening on" line, talks to it, then stops it through the context as
// SIGINT would.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-delay-ms", "1"}, outW, io.Discard)
		outW.Close()
	}()

	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read listening line: %v", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "listening on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/agent") || strings.HasSuffix(url, ":0/agent") {
		t.Fatalf("stdout line = %q, want \"listening on http://127.0.0.1:<port>/agent\"", line)
	}

	in, _ := json.Marshal(RunAgentInput{ThreadID: "t", RunID: "r", Messages: userText("weather in Berlin")})
	resp, err := http.Post(url, "application/json", strings.NewReader(string(in)))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	events, err := parseSSE(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkOrder(events); err != nil {
		t.Fatal(err)
	}
	if _, texts := capture(events); len(texts) != 1 || texts[0] != "It is windy and 17°C in Berlin." {
		t.Errorf("texts = %q", texts)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run = %v, want nil after cancel", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("run had not returned a minute after the context was cancelled")
	}
	health := strings.TrimSuffix(url, "/agent") + "/health"
	if resp, err := http.Get(health); err == nil {
		resp.Body.Close()
		t.Errorf("GET %s after shutdown succeeded, want connection refused", health)
	}
}

func TestRunFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string // "" = returns nil without serving
	}{
		{"help", []string{"-h"}, ""},
		{"unknown flag", []string{"-port", "1"}, "flag provided but not defined"},
		{"negative delay", []string{"-delay-ms", "-1"}, "must not be negative"},
		{"extra argument", []string{"serve"}, `unexpected argument "serve"`},
		{"bad address", []string{"-addr", "127.0.0.1:99999"}, "invalid port"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout strings.Builder
			err := run(t.Context(), tc.args, &stdout, io.Discard)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("run(%q) = %v, want nil", tc.args, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("run(%q) = %v, want error containing %q", tc.args, err, tc.wantErr)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
		})
	}
}
