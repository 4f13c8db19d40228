package model

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header []string
		want   time.Duration
		wantOK bool
	}{
		{"none", nil, 0, false},
		{"seconds", []string{"Retry-After", "2"}, 2 * time.Second, true},
		{"fractional seconds", []string{"Retry-After", "0.25"}, 250 * time.Millisecond, true},
		{"zero", []string{"Retry-After", "0"}, 0, true},
		{"negative", []string{"Retry-After", "-1"}, 0, false},
		{"NaN", []string{"Retry-After", "NaN"}, 0, false},
		{"huge", []string{"Retry-After", "1e30"}, maxRetryAfter, true},
		{"HTTP date", []string{"Retry-After", now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{"HTTP date past", []string{"Retry-After", now.Add(-time.Hour).Format(http.TimeFormat)}, 0, true},
		{"garbage", []string{"Retry-After", "soon"}, 0, false},
		{"ms", []string{"Retry-After-Ms", "1500"}, 1500 * time.Millisecond, true},
		{"ms over seconds", []string{"Retry-After-Ms", "20", "Retry-After", "3"}, 20 * time.Millisecond, true},
		{"bad ms falls back", []string{"Retry-After-Ms", "x", "Retry-After", "3"}, 3 * time.Second, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for i := 0; i < len(tc.header); i += 2 {
				h.Set(tc.header[i], tc.header[i+1])
			}
			got, ok := retryAfter(h, now)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("retryAfter(%v) = %v, %v; want %v, %v", tc.header, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestWait(t *testing.T) {
	c := &Client{maxWait: 3 * time.Second}
	tests := []struct {
		name  string
		f     failure
		retry int
		want  time.Duration
	}{
		{"first backoff", failure{}, 0, 500 * time.Millisecond},
		{"second backoff", failure{}, 1, time.Second},
		{"third backoff", failure{}, 2, 2 * time.Second},
		{"backoff capped", failure{}, 3, 3 * time.Second},
		{"many retries stay capped", failure{}, 200, 3 * time.Second},
		{"Retry-After", failure{hasRetryAfter: true, retryAfter: time.Second}, 5, time.Second},
		{"Retry-After capped", failure{hasRetryAfter: true, retryAfter: time.Minute}, 0, 3 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.wait(&tc.f, tc.retry); got != tc.want {
				t.Errorf("wait(%+v, %d) = %v, want %v", tc.f, tc.retry, got, tc.want)
			}
		})
	}
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		60 * time.Second:        "60s",
		100 * time.Millisecond:  "100ms",
		1500 * time.Millisecond: "1.5s",
	} {
		if got := seconds(d); got != want {
			t.Errorf("seconds(%v) = %q, want %q", d, got, want)
		}
	}
}
