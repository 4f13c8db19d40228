package model_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/model/modeltest"
)

// testKey is the API key of every test client; no error may contain it.
const testKey = "sk-test-SECRET-0123456789"

// fakeSleep records the waits between attempts and returns at once.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (f *fakeSleep) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits = append(f.waits, d)
	return ctx.Err()
}

func (f *fakeSleep) Waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

// newClient returns a client of srv with instant sleeps; edit adjusts the
// config first.
func newClient(t *testing.T, srv *modeltest.Server, edit func(*model.Config)) (*model.Client, *fakeSleep) {
	t.Helper()
	sleep := &fakeSleep{}
	cfg := model.Config{
		Endpoint: srv.URL,
		Name:     "gpt-test",
		APIKey:   testKey,
		HTTP:     srv.Client(),
		Sleep:    sleep.Sleep,
	}
	if edit != nil {
		edit(&cfg)
	}
	c, err := model.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, sleep
}

func user(content string) model.Request {
	return model.Request{Messages: []model.Message{{Role: "user", Content: content}}}
}

// asError checks err is a *model.Error without the API key anywhere.
func asError(t *testing.T, err error) *model.Error {
	t.Helper()
	var merr *model.Error
	if !errors.As(err, &merr) {
		t.Fatalf("error %v (%T) is not a *model.Error", err, err)
	}
	for _, s := range []string{err.Error(), merr.Detail} {
		if strings.Contains(s, testKey) {
			t.Errorf("error contains the API key: %q", s)
		}
	}
	return merr
}
