package artifact

import (
	"errors"
	"net/url"
	"slices"
	"strings"
)

// signedURL is the upload URL CreateArtifact returns, with the values that
// must never reach a log: the SAS signature (sig), as written and decoded,
// the query string, and the URL itself.
type signedURL struct {
	raw     string
	secrets []string // longest first, so the widest match is cut
}

// parseSignedURL reads raw and tells onSecret (may be nil) the values to
// mask before anything else happens with the URL. Its errors never quote
// the URL.
func parseSignedURL(raw string, onSecret func(string)) (signedURL, error) {
	s := signedURL{raw: raw}
	var masks []string
	u, err := url.Parse(raw)
	if err == nil {
		for _, kv := range strings.Split(u.RawQuery, "&") {
			if v, ok := strings.CutPrefix(kv, "sig="); ok && v != "" {
				if dec, err := url.QueryUnescape(v); err == nil && dec != v {
					masks = append(masks, dec)
				}
				masks = append(masks, v)
			}
		}
	}
	masks = append(masks, raw)
	if onSecret != nil {
		for _, m := range masks {
			onSecret(m)
		}
	}
	if u != nil && u.RawQuery != "" {
		masks = append(masks, u.RawQuery)
	}
	slices.SortFunc(masks, func(a, b string) int { return len(b) - len(a) })
	s.secrets = slices.Compact(masks)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return s, errors.New("signed upload URL is not an absolute http(s) URL")
	}
	return s, nil
}

// scrub replaces the secrets in text.
func (s signedURL) scrub(text string) string {
	for _, v := range s.secrets {
		text = strings.ReplaceAll(text, v, "***")
	}
	return text
}

// scrubError returns err, or when its text holds a secret despite the care
// taken where errors are made, an error with that text scrubbed that still
// unwraps to err (so errors.Is keeps working).
func (s signedURL) scrubError(err error) error {
	msg := err.Error()
	if clean := s.scrub(msg); clean != msg {
		return &scrubbedError{msg: clean, err: err}
	}
	return err
}

type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }
