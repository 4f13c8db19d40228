package bless

import (
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/trace"
)

func TestOutName(t *testing.T) {
	for _, c := range []struct {
		conv Conversation
		want string
	}{
		{Conversation{ID: "weather"}, "weather.ananke.yaml"},
		{Conversation{ID: "pass/weather", File: "x/weather.ananke.yaml"}, filepath.Join("pass", "weather.ananke.yaml")},
		{Conversation{ID: "../up", File: "x/up.ananke.yaml"}, "up.ananke.yaml"},
		{Conversation{ID: "a:b", File: "x/ab.ananke.yaml"}, "ab.ananke.yaml"},
		{Conversation{Source: &Source{Format: "claude-transcript", Path: "s/0b7e.jsonl"}}, "0b7e.ananke.yaml"},
		{Conversation{Source: &Source{Format: "nanoclaw", Path: "nc", Group: "family", Task: "digest"}}, "family-digest.ananke.yaml"},
		{Conversation{}, "blessed.ananke.yaml"},
	} {
		if got := c.conv.OutName(); got != c.want {
			t.Errorf("OutName(%+v) = %q, want %q", c.conv, got, c.want)
		}
	}
}

func TestOffer(t *testing.T) {
	a := &Conversation{Traces: []*trace.Trace{tr(turn("", "", call("x", "{}", ""), call("tools/list", "{}", "")))}}
	b := &Conversation{Traces: []*trace.Trace{tr(turn("", "", call("y", "{}", "")))}}
	b.Offer("z", "declared")
	b.Offer("z", "second reason, ignored")
	OfferEachOther([]*Conversation{a, b}, "others called it")
	if a.available["y"] != "others called it" || len(a.available) != 1 {
		t.Errorf("a offered %v", a.available)
	}
	if b.available["x"] != "others called it" || b.available["z"] != "declared" || len(b.available) != 2 {
		t.Errorf("b offered %v", b.available)
	}
}
