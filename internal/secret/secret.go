// Package secret says which parts of a URL are secrets. A URL field —
// target.endpoint, target.agentCardUrl, target.server.ready_url,
// model.endpoint — is shown in messages and reports, so that a failure
// says where it happened; only its userinfo password and its query values
// are masked, since that is where URLs carry keys and tokens
// (docs/reports.md, "Secrets").
package secret

import (
	"net/url"
	"strings"
)

// Mask replaces a secret in every output.
const Mask = "***"

// minLen is the shortest value worth masking: shorter ones would rewrite
// every word containing them and protect nothing (docs/reports.md).
const minLen = 3

// parts are the byte ranges of a URL's userinfo (without the "@") and of
// its query and fragment (from the "?" or "#"); each is empty when the URL
// has none.
type parts struct {
	userFrom, userTo int
	queryFrom        int
}

// split finds the parts of raw, an absolute URL or a reference.
func split(raw string) parts {
	authority := 0
	if i := strings.Index(raw, "://"); i >= 0 && !strings.ContainsAny(raw[:i], "/?#") {
		authority = i + 3
	} else if strings.HasPrefix(raw, "//") {
		authority = 2
	}
	p := parts{queryFrom: len(raw)}
	if i := strings.IndexAny(raw[authority:], "?#"); i >= 0 {
		p.queryFrom = authority + i
	}
	p.userFrom, p.userTo = authority, authority
	if authority > 0 {
		end := authority + strings.IndexAny(raw[authority:p.queryFrom]+"/", "/")
		if at := strings.LastIndex(raw[authority:end], "@"); at >= 0 {
			p.userTo = authority + at
		}
	}
	return p
}

// Private reports whether raw[from:to], a value substituted into the URL
// raw, lies wholly in its userinfo or wholly in its query and fragment: a
// value that does is a secret as a whole, as a key in ?key=… is; one that
// reaches into the scheme, host, port or path is not (the URL's own
// secrets are found by In).
func Private(raw string, from, to int) bool {
	p := split(raw)
	return from >= p.userFrom && to <= p.userTo && p.userTo > p.userFrom || from >= p.queryFrom
}

// In returns the secrets of the URL raw: its userinfo password and the
// values of its query, each as written and decoded, those shorter than 3
// bytes left out. Text that is no URL has none.
func In(raw string) []string {
	p := split(raw)
	var out []string
	add := func(v string) {
		if len(v) >= minLen {
			out = append(out, v)
		}
		if d, err := url.QueryUnescape(v); err == nil && d != v && len(d) >= minLen {
			out = append(out, d)
		}
	}
	if user := raw[p.userFrom:p.userTo]; user != "" {
		if _, pass, ok := strings.Cut(user, ":"); ok {
			add(pass)
		}
	}
	for _, v := range queryValues(raw, p) {
		add(v)
	}
	return out
}

// queryValues are the values of raw's query as written: "a=1&b=2" gives 1
// and 2 (the fragment is left out).
func queryValues(raw string, p parts) []string {
	q := raw[p.queryFrom:]
	if !strings.HasPrefix(q, "?") {
		return nil
	}
	q, _, _ = strings.Cut(q[1:], "#")
	var out []string
	for _, kv := range strings.Split(q, "&") {
		if _, v, ok := strings.Cut(kv, "="); ok && v != "" {
			out = append(out, v)
		}
	}
	return out
}

// URL is raw with its userinfo password and query values replaced by
// Mask, for messages: "https://u:***@host/v1?key=***".
func URL(raw string) string {
	p := split(raw)
	var b strings.Builder
	b.WriteString(raw[:p.userFrom])
	if user := raw[p.userFrom:p.userTo]; user != "" {
		name, _, ok := strings.Cut(user, ":")
		b.WriteString(name)
		if ok {
			b.WriteString(":" + Mask)
		}
	}
	b.WriteString(raw[p.userTo:p.queryFrom])
	rest := raw[p.queryFrom:]
	if !strings.HasPrefix(rest, "?") {
		b.WriteString(rest)
		return b.String()
	}
	q, frag, hasFrag := strings.Cut(rest[1:], "#")
	b.WriteString("?")
	for i, kv := range strings.Split(q, "&") {
		if i > 0 {
			b.WriteString("&")
		}
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" {
			kv = k + "=" + Mask
		}
		b.WriteString(kv)
	}
	if hasFrag {
		b.WriteString("#" + frag)
	}
	return b.String()
}
