package bless

import "testing"

func TestIdentifier(t *testing.T) {
	for _, c := range []struct {
		key, value string
		isString   bool
		want       bool
	}{
		{"orderId", "A-1001", true, true},
		{"sku", "B-200", true, true},
		{"charge", "ch_1", true, true},
		{"ref", "ord_8f3a", true, true},
		{"id", "123e4567-e89b-12d3-a456-426614174000", true, true},
		{"to", "ada@example.com", true, true},
		{"customer.email", "ada@example.com", true, true},
		{"city", "Paris", true, false},        // a plain word
		{"city_code", "PAR", true, true},      // but the name says it is a code
		{"query", "trail shoes", true, false}, // free text
		{"message", "order A-1001 please", true, false},
		{"url", "https://shop.example.com/a1", true, false},
		{"amount", "42", false, false},   // a number under another name
		{"orderId", "1042", false, true}, // a number the name calls an id
		{"items.0.sku", "7", false, true},
		{"order_number", "-3", false, true},
		{"amount", "89.5", false, false},
		{"orderId", "42.5", false, false},   // not a whole number
		{"date", "2026-03-14", true, false}, // a date is one only where the user wrote it
		{"version", "v2", true, true},
		{"note", "", true, false},
		{"blob", "a1234567890123456789012345678901234567890123456789012345678901234567890", true, false}, // too long
	} {
		if got := Identifier(c.key, c.value, c.isString); got != c.want {
			t.Errorf("Identifier(%q, %q, %v) = %v, want %v", c.key, c.value, c.isString, got, c.want)
		}
	}
}

func TestIsDate(t *testing.T) {
	for v, want := range map[string]bool{"2026-03-14": true, "2026-3-14": false, "2026-03-14T10:00:00Z": false, "14/03/2026": false} {
		if IsDate(v) != want {
			t.Errorf("IsDate(%q) = %v, want %v", v, !want, want)
		}
	}
}
