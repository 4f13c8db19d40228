// Package htmltest opens a page in a headless Chromium for tests: it
// clicks, reads text, evaluates script and takes screenshots, and records
// every network request the page made and every error it logged, so that a
// test can prove a report loads nothing and runs cleanly.
//
// Without a browser, Open skips the test — or fails it when the
// environment sets ANANKE_REQUIRE_BROWSER=1, as CI does.
package htmltest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// RequireEnv names the variable that makes a missing browser fail tests
// rather than skip them.
const RequireEnv = "ANANKE_REQUIRE_BROWSER"

// Viewport is the size pages open at, so that screenshots are comparable.
const (
	Width  = 1280
	Height = 900
)

// Timeouts are generous: a loaded CI machine starts a browser slowly, and
// no test asserts on time.
const (
	sessionTimeout = 3 * time.Minute
	actionTimeout  = 45 * time.Second
)

// browsers are the names a Chromium is installed under.
var browsers = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless-shell"}

// Chromium returns the path of a Chromium or Chrome, or "" when there is
// none.
func Chromium() string {
	for _, name := range browsers {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Page is a page open in a headless browser.
type Page struct {
	tb  testing.TB
	ctx context.Context
	log *record
}

// record is what the page did: its requests and its errors.
type record struct {
	mu       sync.Mutex
	requests []string
	errors   []string
}

// For returns the page reporting failures to tb, for a subtest.
func (p *Page) For(tb testing.TB) *Page {
	c := *p
	c.tb = tb
	return &c
}

// Open starts a headless browser with a fresh profile and opens the file at
// path through file://, waiting for it to load. The browser is stopped when
// the test ends.
func Open(tb testing.TB, path string) *Page {
	tb.Helper()
	bin := Chromium()
	if bin == "" {
		if os.Getenv(RequireEnv) == "1" {
			tb.Fatalf("no Chromium found (looked for %s) and %s=1", strings.Join(browsers, ", "), RequireEnv)
		}
		tb.Skipf("no Chromium found (looked for %s); set %s=1 to fail instead", strings.Join(browsers, ", "), RequireEnv)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		tb.Fatal(err)
	}
	profile, err := os.MkdirTemp("", "ananke-chromium-")
	if err != nil {
		tb.Fatal(err)
	}
	// These flags keep a browser quiet on a machine without a network:
	// no first-run work, no component or sync traffic, no QUIC probes.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(Width, Height))
	base, stop := context.WithTimeout(context.Background(), sessionTimeout)
	alloc, cancelAlloc := chromedp.NewExecAllocator(base, opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	tb.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
		stop()
		// The browser's children may write to the profile for a moment
		// after it stopped.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	p := &Page{tb: tb, ctx: ctx, log: &record{}}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(Width, Height)); err != nil {
		tb.Fatalf("start %s: %v", bin, err)
	}
	if err := chromedp.Listen(ctx, p.log.add); err != nil {
		tb.Fatalf("listen to the browser: %v", err)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	p.do("open "+u.String(), chromedp.Navigate(u.String()))
	return p
}

// add keeps the requests and the errors the page causes. It runs in the
// browser's read loop, so it only appends.
func (r *record) add(ev any) {
	var req, problem string
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		req = e.Request.URL
	case *network.EventLoadingFailed:
		problem = fmt.Sprintf("request failed: %s %s %s", e.ErrorText, e.BlockedReason, e.Type)
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			problem = fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		problem = "exception: " + (&chromedp.ExceptionError{ExceptionDetails: e.ExceptionDetails}).Error()
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			problem = fmt.Sprintf("log %s: %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL)
		}
	}
	if req == "" && problem == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if req != "" {
		r.requests = append(r.requests, req)
	}
	if problem != "" {
		r.errors = append(r.errors, problem)
	}
}

// do runs browser actions, failing the test when one fails.
func (p *Page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.tb.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.tb.Fatalf("%s: %v", what, err)
	}
}

// Requests returns the URL of every request the page made so far, the
// document's own first.
func (p *Page) Requests() []string {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	return append([]string(nil), p.log.requests...)
}

// Errors returns every console error, uncaught exception, error logged by
// the browser (a request the Content-Security-Policy blocked, say) and
// failed request so far.
func (p *Page) Errors() []string {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	return append([]string(nil), p.log.errors...)
}

// Click clicks the first element matching a CSS selector, once it is
// visible.
func (p *Page) Click(sel string) {
	p.tb.Helper()
	p.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// WaitVisible waits until an element matching a CSS selector is visible.
func (p *Page) WaitVisible(sel string) {
	p.tb.Helper()
	p.do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// Type types text into the first element matching a CSS selector, as a
// person would (each key fires its events).
func (p *Page) Type(sel, text string) {
	p.tb.Helper()
	p.do("type into "+sel, chromedp.SendKeys(chromedp.CSS(sel), text))
}

// Count returns how many elements match a CSS selector.
func (p *Page) Count(sel string) int {
	p.tb.Helper()
	b, _ := json.Marshal(sel) // a string always encodes
	var n int
	p.Eval("document.querySelectorAll("+string(b)+").length", &n)
	return n
}

// Text returns the rendered text of the first element matching a CSS
// selector.
func (p *Page) Text(sel string) string {
	p.tb.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.tb.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// Eval evaluates a JavaScript expression in the page and decodes its value
// (JSON) into out, which may be nil.
func (p *Page) Eval(js string, out any) {
	p.tb.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
	if err != nil {
		p.tb.Fatalf("evaluate %s: %v", js, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			p.tb.Fatalf("evaluate %s: decode %s: %v", js, raw, err)
		}
	}
}

// SetHash sets the page's address fragment (#test=…), as following a link
// to the page would.
func (p *Page) SetHash(hash string) {
	p.tb.Helper()
	b, _ := json.Marshal(hash) // a string always encodes
	p.Eval("location.hash = "+string(b)+"; true", nil)
}

// ColorScheme makes the page see the system's colour scheme as scheme,
// "light" or "dark" (prefers-color-scheme); styles follow at once.
func (p *Page) ColorScheme(scheme string) {
	p.tb.Helper()
	p.do("prefer "+scheme+" colours", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
}

// Screenshot writes a PNG of the viewport to path.
func (p *Page) Screenshot(path string) {
	p.tb.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.tb.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.tb.Fatal(err)
	}
}

// Reload reloads the page, as a person pressing F5 would, and waits for
// it to load: what the page keeps in the browser (localStorage) stays.
func (p *Page) Reload() {
	p.tb.Helper()
	p.do("reload", chromedp.Reload())
}

// SetFiles chooses files in the file input matching a CSS selector, as a
// person picking them would (the input's change event fires).
func (p *Page) SetFiles(sel string, paths ...string) {
	p.tb.Helper()
	p.do("choose files in "+sel, chromedp.SetUploadFiles(chromedp.CSS(sel), paths))
}

// Download saves what the page downloads into dir: it runs start (a
// click that makes the page download a file) and returns the path of the
// file once the browser has written it whole, and the name the page
// suggested for it.
func (p *Page) Download(dir string, start func()) (path, name string) {
	p.tb.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		p.tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	events := true
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: abs, EventsEnabled: &events}); err != nil {
		p.tb.Fatalf("let the page download into %s: %v", abs, err)
	}
	begins := chromedp.BrowserEvents(ctx, browser.DownloadWillBegin)
	progress := chromedp.BrowserEvents(ctx, browser.DownloadProgress)
	start()
	for ev, err := range begins {
		if err != nil {
			p.tb.Fatalf("no download began: %v", err)
		}
		if name = ev.SuggestedFilename; name != "" {
			break
		}
	}
	for ev, err := range progress {
		if err != nil {
			p.tb.Fatalf("no download completed: %v", err)
		}
		switch ev.State {
		case browser.DownloadProgressStateCompleted:
			// allowAndName names the file by the download's guid.
			return filepath.Join(abs, ev.GUID), name
		case browser.DownloadProgressStateCanceled:
			p.tb.Fatalf("the download %s was cancelled", ev.GUID)
		}
	}
	p.tb.Fatal("no download completed")
	return "", ""
}
