package console

import (
	"testing"

	"github.com/ananke/action/internal/assertion"
)

// TestCategoryWords: every failure category is said in words a newcomer
// reads, its name after them.
func TestCategoryWords(t *testing.T) {
	for _, c := range assertion.Categories {
		if w := categoryWords[c]; w == "" {
			t.Errorf("category %q has no words", c)
		}
	}
	if got, want := whatWentWrong([]string{"process", "timing", "new-kind"}), "the tool calls (process), timing, new-kind"; got != want {
		t.Errorf("whatWentWrong = %q; want %q", got, want)
	}
}
