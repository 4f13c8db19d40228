package export

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// TestPartialSuccess: the hand reading of a response agrees with the
// official types on what they write; what it cannot read rejects nothing.
func TestPartialSuccess(t *testing.T) {
	for _, tt := range []struct {
		rejected int64
		msg      string
	}{{0, ""}, {3, "3 spans over the limit"}, {1 << 40, ""}, {0, "a warning alone"}} {
		resp := ptraceotlp.NewExportResponse()
		resp.PartialSuccess().SetRejectedSpans(tt.rejected)
		resp.PartialSuccess().SetErrorMessage(tt.msg)
		b, err := resp.MarshalProto()
		if err != nil {
			t.Fatal(err)
		}
		if r, m := partialSuccess(b); r != tt.rejected || (r > 0 && m != tt.msg) {
			t.Errorf("partialSuccess(%x) = %d %q, want %d %q", b, r, m, tt.rejected, tt.msg)
		}
	}
	for _, junk := range [][]byte{{0x0a}, {0x0a, 0x05, 0x08}, {0xff, 0xff}, {0x0b, 0x00}} {
		if r, _ := partialSuccess(junk); r != 0 {
			t.Errorf("partialSuccess(%x) = %d, want 0", junk, r)
		}
	}
}
