package export

import "encoding/binary"

// partialSuccess reads an ExportTraceServiceResponse's partial_success
// (field 1: {rejected_spans = 1, varint; error_message = 2, string}).
// Read by hand with encoding/binary's varints: the response has one
// message of two scalar fields, and the decoders that know it (ptraceotlp)
// would link gRPC and the protobuf runtime into the binary. Anything it
// cannot read is no rejection.
func partialSuccess(b []byte) (rejected int64, msg string) {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, ""
		}
		b = b[n:]
		field, wire := key>>3, key&7
		switch wire {
		case 0: // varint
			_, n := binary.Uvarint(b)
			if n <= 0 {
				return 0, ""
			}
			b = b[n:]
		case 2: // length-delimited
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return 0, ""
			}
			if field == 1 {
				return partialFields(b[n : n+int(l)])
			}
			b = b[n+int(l):]
		default:
			return 0, ""
		}
	}
	return 0, ""
}

// partialFields reads an ExportTracePartialSuccess.
func partialFields(b []byte) (rejected int64, msg string) {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return rejected, msg
		}
		b = b[n:]
		switch field, wire := key>>3, key&7; {
		case wire == 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return rejected, msg
			}
			if field == 1 {
				rejected = int64(v)
			}
			b = b[n:]
		case wire == 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return rejected, msg
			}
			if field == 2 {
				msg = string(b[n : n+int(l)])
			}
			b = b[n+int(l):]
		default:
			return rejected, msg
		}
	}
	return rejected, msg
}
