package agui

import "fmt"

// Severity says whether a problem fails the run.
type Severity uint8

// Severities.
const (
	Warning Severity = iota
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Rules name the protocol rule a Problem is about.
const (
	RuleFrame     = "frame"     // the SSE data is not one JSON object with a type
	RuleSchema    = "schema"    // a known field is missing or malformed
	RuleUnknown   = "unknown"   // an unknown event type or field (ignored)
	RuleCompat    = "compat"    // a retired or legacy shape, translated
	RuleChunk     = "chunk"     // *_CHUNK expansion
	RuleOrder     = "order"     // event order (the verifier)
	RuleIdentity  = "identity"  // threadId / runId echo and agreement
	RuleVersion   = "version"   // the producer's protocolVersion
	RuleTruncated = "truncated" // the stream ended without a terminal event
	RuleFraming   = "framing"   // SSE framing the official client cannot read
	RuleToolArgs  = "tool-args" // tool call arguments that are not JSON
	RuleToolCall  = "tool-call" // a result for a call that was never started
	RuleState     = "state"     // a state or activity patch that does not apply
	RuleOutcome   = "outcome"   // RUN_FINISHED outcome
	RuleEmpty     = "empty"     // an SSE event without data
)

// Problem is one deviation from the protocol found in a response.
type Problem struct {
	// Frame is the 1-based index of the SSE event in the response; 0 means
	// the response as a whole (e.g. truncation).
	Frame    int
	Rule     string
	Severity Severity
	// Must marks a warning that breaks a protocol MUST which real producers
	// commonly ship (runId echo, non-integer timestamps, CRLF framing): it
	// becomes an error in strict mode.
	Must    bool
	Message string
}

func (p Problem) String() string {
	where := "response"
	if p.Frame > 0 {
		where = fmt.Sprintf("event #%d", p.Frame)
	}
	return fmt.Sprintf("%s: %s (%s)", where, p.Message, p.Rule)
}

// problems collects the problems of one response.
type problems struct {
	list  []Problem
	frame int
}

func (ps *problems) add(sev Severity, rule, format string, args ...any) {
	ps.list = append(ps.list, Problem{Frame: ps.frame, Rule: rule, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

func (ps *problems) errorf(rule, format string, args ...any) { ps.add(Error, rule, format, args...) }

func (ps *problems) warnf(rule, format string, args ...any) { ps.add(Warning, rule, format, args...) }

// mustf records a warning that strict mode turns into an error.
func (ps *problems) mustf(rule, format string, args ...any) {
	ps.add(Warning, rule, format, args...)
	ps.list[len(ps.list)-1].Must = true
}
