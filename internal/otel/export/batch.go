package export

import "go.opentelemetry.io/collector/pdata/ptrace"

// DefaultBatch is how many spans one request carries at most: a run of
// thousands of tests stays under the request size receivers accept
// (the Collector's default is 20 MiB).
const DefaultBatch = 1000

// batches splits td into requests of at most n spans each, every span
// under a copy of its resource and scope.
func batches(td ptrace.Traces, n int) []ptrace.Traces {
	if td.SpanCount() <= n {
		return []ptrace.Traces{td}
	}
	var out []ptrace.Traces
	var cur ptrace.Traces
	count := 0
	for _, rs := range td.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			var dst ptrace.SpanSlice
			open := false // dst is this scope's in the current request
			for _, s := range ss.Spans().All() {
				if count == 0 || count == n {
					cur, count = ptrace.NewTraces(), 0
					out = append(out, cur)
					open = false
				}
				if !open {
					open = true
					nrs := cur.ResourceSpans().AppendEmpty()
					rs.Resource().CopyTo(nrs.Resource())
					nrs.SetSchemaUrl(rs.SchemaUrl())
					nss := nrs.ScopeSpans().AppendEmpty()
					ss.Scope().CopyTo(nss.Scope())
					nss.SetSchemaUrl(ss.SchemaUrl())
					dst = nss.Spans()
				}
				s.CopyTo(dst.AppendEmpty())
				count++
			}
		}
	}
	return out
}
