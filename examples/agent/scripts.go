package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// route maps a keyword test on the last user message (lower-cased) to a
// script. Routes are tried in order, so more specific phrases come first.
type route struct {
	match  func(text string) bool
	script func(s *stream)
}

var routes = []route{
	{containsAny("crash"), crash},
	{containsAny("coin"), coin},
	{containsAny("as json"), orderJSON},
	{containsAny("tomorrow"), forecastGuess},
	{containsAny("return policy"), returnPolicy},
	{isSlow, slow},
	{containsAny("chunk"), chunks},
	{containsAny("what is my name"), recallName},
	{containsAny("my name is"), greet},
	{containsAny("what did i say first", "first message"), quoteFirst},
	{containsAny("compare"), compare},
	{containsAny("buy"), buy},
	{containsAny("weather"), weather},
	{containsAny("search", "find"), search},
}

// play runs the script the input asks for. A run whose last message is a
// tool result is the client's follow-up to a client tool call, so the tool
// result, not the user's words, decides what happens next. Otherwise files
// attached to the last user message are read (attachments.go) before any
// keyword script.
func play(s *stream) {
	if d := thinkIn(s.lastUserText()); d > 0 {
		// Before RUN_STARTED: the client waits for its first event.
		if s.err = sleep(s.ctx, d); s.err != nil {
			return
		}
	}
	s.toolTime = durationIn(toolTimePattern, s.userTexts())
	s.start()
	if n := len(s.in.Messages); n > 0 && s.in.Messages[n-1].Role == "tool" {
		afterToolResult(s, s.in.Messages[n-1])
		return
	}
	// Files come before keywords: "what's in this receipt?" is about the file.
	switch atts, err := s.lastUserAttachments(); {
	case err != nil:
		s.fail(err.Error(), "invalid_attachment")
		return
	case len(atts) > 0:
		readAttachments(s, atts)
		return
	}
	text := strings.ToLower(s.lastUserText())
	for _, r := range routes {
		if r.match(text) {
			r.script(s)
			return
		}
	}
	fallback(s)
}

func containsAny(keywords ...string) func(string) bool {
	return func(text string) bool {
		for _, k := range keywords {
			if strings.Contains(text, k) {
				return true
			}
		}
		return false
	}
}

// thinkPattern finds "think for 250 ms" (or "think 250ms") in a message.
var thinkPattern = regexp.MustCompile(`(?i)think (?:for )?(\d+) ?ms`)

// toolTimePattern finds "tools take 300 ms" in any user message of the
// conversation, so it holds for the follow-up runs of a turn too.
var toolTimePattern = regexp.MustCompile(`(?i)tools take (\d+) ?ms`)

// durationIn reads N ms from the last of texts that pattern matches.
func durationIn(pattern *regexp.Regexp, texts []string) time.Duration {
	for i := len(texts) - 1; i >= 0; i-- {
		if d := msIn(pattern, texts[i]); d > 0 {
			return d
		}
	}
	return 0
}

// thinkIn reads N from "think for N ms", capped at maxWait; 0 without one.
// The agent sends nothing for that long, then answers as the rest of the
// message asks: a slow first event, for timing.max_first_event_ms.
func thinkIn(text string) time.Duration { return msIn(thinkPattern, text) }

// msIn reads the number of milliseconds pattern captures, capped at
// maxWait; 0 when it does not match.
func msIn(pattern *regexp.Regexp, text string) time.Duration {
	m := pattern.FindStringSubmatch(text)
	if m == nil {
		return 0
	}
	ms, err := strconv.Atoi(m[1])
	if err != nil || ms > int(maxWait/time.Millisecond) {
		return maxWait
	}
	return time.Duration(ms) * time.Millisecond
}

// waitPattern finds "wait 250 ms" (or "wait 250ms") in a lower-cased message.
var waitPattern = regexp.MustCompile(`wait (\d+) ?ms`)

func isSlow(text string) bool {
	return strings.Contains(text, "slow") || waitPattern.MatchString(text)
}

// Limits of the slow script: long enough to trip a timing assertion, short
// enough that a forgotten test does not hang a CI job.
const (
	defaultWait = 300 * time.Millisecond
	maxWait     = 5000 * time.Millisecond
)

// slow waits inside a step before answering, for timing assertions
// (max_duration_ms, max_idle_ms).
func slow(s *stream) {
	s.write(Event{Type: "STEP_STARTED", StepName: "waiting"})
	if s.err == nil {
		s.err = sleep(s.ctx, waitIn(s.lastUserText()))
	}
	s.write(Event{Type: "STEP_FINISHED", StepName: "waiting"})
	s.say("Done waiting.")
	s.finish()
}

// waitIn reads N from "wait N ms", capped at maxWait; other texts get defaultWait.
func waitIn(text string) time.Duration {
	m := waitPattern.FindStringSubmatch(strings.ToLower(text))
	if m == nil {
		return defaultWait
	}
	ms, err := strconv.Atoi(m[1])
	if err != nil || ms > int(maxWait/time.Millisecond) { // too many digits also fails Atoi
		return maxWait
	}
	return time.Duration(ms) * time.Millisecond
}

// crash fails mid-answer. The open text message is closed first: RUN_ERROR
// ends the run, and nothing may be left open or sent after it.
func crash(s *stream) {
	id := s.newID("msg")
	s.write(Event{Type: "TEXT_MESSAGE_START", MessageID: id, Role: "assistant"})
	s.write(Event{Type: "TEXT_MESSAGE_CONTENT", MessageID: id, Delta: "Let me think "})
	s.write(Event{Type: "TEXT_MESSAGE_CONTENT", MessageID: id, Delta: "about that..."})
	s.write(Event{Type: "TEXT_MESSAGE_END", MessageID: id})
	s.fail("the agent crashed on purpose", "demo_crash")
}

// chunks sends its answer only as TEXT_MESSAGE_CHUNK events, the compact form
// some frameworks (Mastra) use: no START or END, and every chunk repeats the
// message id so the client can expand them into the usual triad.
func chunks(s *stream) {
	id := s.newID("msg")
	for _, piece := range splitWords("This answer arrives in chunks.", 3) {
		s.write(Event{Type: "TEXT_MESSAGE_CHUNK", MessageID: id, Role: "assistant", Delta: piece})
	}
	s.finish()
}

// greet answers "my name is X"; recallName finds X again in a later turn.
func greet(s *stream) {
	if name := nameIn(s.lastUserText()); name != "" {
		s.say("Nice to meet you, " + name + ".")
	} else {
		s.say("Nice to meet you.")
	}
	s.finish()
}

// recallName answers from the history the client sends: the agent keeps no
// memory of its own, so it can only know what earlier messages say.
func recallName(s *stream) {
	users := s.userTexts()
	for i := len(users) - 2; i >= 0; i-- { // newest earlier message first
		if name := nameIn(users[i]); name != "" {
			s.say("Your name is " + name + ".")
			s.finish()
			return
		}
	}
	s.say("You have not told me your name.")
	s.finish()
}

func quoteFirst(s *stream) {
	s.say(fmt.Sprintf("Your first message was: %q", s.userTexts()[0]))
	s.finish()
}

// tosses counts one agent's coin tosses per message text, so that two
// suites tossing with different messages do not share a sequence. Each
// handler has its own: a new agent starts every sequence afresh.
type tosses struct {
	sync.Mutex
	n map[string]int
}

func newTosses() *tosses { return &tosses{n: map[string]int{}} }

// toss counts a toss for text and reports whether it is heads (the 2nd,
// 4th, ... toss for text).
func (t *tosses) toss(text string) bool {
	t.Lock()
	defer t.Unlock()
	t.n[text]++
	return t.n[text]%2 == 0
}

// coin is the one script whose answer is not fixed by its input: for the
// same message it alternates — tails (no tool call) on the 1st, 3rd, ...
// request since the agent started, heads (a toss_coin call) on the 2nd,
// 4th, ... — so a test requiring toss_coin passes every other run, like a
// language-model agent that sometimes skips a tool. examples/flaky uses it
// to show --runs, --min-pass-rate and --retries.
func coin(s *stream) {
	if s.tosses.toss(strings.ToLower(s.lastUserText())) {
		s.runTool(s.newID("msg"), "toss_coin", "{}", jsonText(map[string]string{"side": "heads"}))
		s.say("Heads!")
	} else {
		s.say("Tails, I think.")
	}
	s.finish()
}

func fallback(s *stream) {
	s.say("I can help with weather, product search, price comparison and orders.")
	s.finish()
}

// nameIn returns X from "... my name is X." (up to the first punctuation), or "".
func nameIn(text string) string {
	_, rest, ok := cutFold(text, "my name is")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, ".,;!?\n"); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(rest)
}

// cutFold is strings.Cut with an ASCII, case-insensitive separator, so the
// text around it keeps the user's spelling.
func cutFold(s, sep string) (before, after string, found bool) {
	for i := 0; i+len(sep) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sep)], sep) {
			return s[:i], s[i+len(sep):], true
		}
	}
	return s, "", false
}

// userTexts returns the text of every user message, oldest first.
func (s *stream) userTexts() []string {
	var texts []string
	for _, m := range s.in.Messages {
		if m.Role == "user" {
			texts = append(texts, m.Text())
		}
	}
	return texts
}

func (s *stream) lastUserText() string {
	texts := s.userTexts()
	if len(texts) == 0 {
		return ""
	}
	return texts[len(texts)-1]
}
