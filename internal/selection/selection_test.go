package selection

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

func test(id, name string, tags ...string) *spec.Test {
	t := &spec.Test{ID: id, Name: vars.Name{Value: name}}
	for _, tag := range tags {
		t.Tags = append(t.Tags, vars.Name{Value: tag})
	}
	return t
}

func ids(ts []*spec.Test) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return strings.Join(out, " ")
}

func TestFilter(t *testing.T) {
	suite := []*spec.Test{
		test("checkout/pay", "pay by card", "smoke", "payments"),
		test("checkout/refund", "refund an order", "payments", "slow"),
		test("weather", "weather in Paris", "smoke"),
		test("memory", "remembers names"),
	}
	for _, tc := range []struct {
		name string
		run  string
		tags []string
		want string
	}{
		{"everything", "", nil, "checkout/pay checkout/refund weather memory"},
		{"run matches ids", "^checkout/", nil, "checkout/pay checkout/refund"},
		{"run matches names", "Paris|names", nil, "weather memory"},
		{"one tag", "", []string{"smoke"}, "checkout/pay weather"},
		{"tags are or-ed", "", []string{"slow", "smoke"}, "checkout/pay checkout/refund weather"},
		{"comma list", "", []string{"slow,smoke"}, "checkout/pay checkout/refund weather"},
		{"exclusion", "", []string{"!slow"}, "checkout/pay weather memory"},
		{"tag and exclusion", "", []string{"payments", "!slow"}, "checkout/pay"},
		{"run and tag", "refund|weather", []string{"payments"}, "checkout/refund"},
		{"nothing", "nope", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f Filter
			if tc.run != "" {
				f.Run = regexp.MustCompile(tc.run)
			}
			var err error
			if f.Include, f.Exclude, err = ParseTags(tc.tags); err != nil {
				t.Fatal(err)
			}
			if got := ids(f.Apply(suite)); got != tc.want {
				t.Errorf("Apply = %q, want %q", got, tc.want)
			}
		})
	}
	for _, bad := range []string{"", "!", "a,,b", " ! "} {
		if _, _, err := ParseTags([]string{bad}); err == nil {
			t.Errorf("ParseTags(%q) accepted", bad)
		}
	}
	f := Filter{Run: regexp.MustCompile("x"), Include: []string{"a"}, Exclude: []string{"b"}}
	if got := f.String(); got != `--run "x" --tag a --tag '!b'` {
		t.Errorf("String = %s", got)
	}
}

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"1/3": {1, 3}, "3/3": {3, 3}, " 2 / 5 ": {2, 5}, "1/1": {1, 1}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "3", "0/3", "4/3", "-1/3", "1/0", "a/b", "1/3/4", "1/1001"} {
		if _, err := ParseShard(bad); err == nil || !strings.HasPrefix(err.Error(), "want i/n") {
			t.Errorf("ParseShard(%q) err = %v", bad, err)
		}
	}
}

// TestShards: for many suite sizes and shard counts, the shards are
// disjoint, cover the suite, keep the suite's order, are balanced by weight
// and do not depend on the order the tests were listed in.
func TestShards(t *testing.T) {
	weight := func(t *spec.Test) int { return 1 + len(t.ID)%4 }
	for size := 0; size <= 23; size++ {
		var suite []*spec.Test
		for i := range size {
			suite = append(suite, test(fmt.Sprintf("t%02d-%s", i, strings.Repeat("x", i%5)), "n"))
		}
		reversed := slices.Clone(suite)
		slices.Reverse(reversed)
		for n := 1; n <= 5; n++ {
			seen := map[string]int{}
			var loads []int
			for i := 1; i <= n; i++ {
				part := Shard{i, n}.Apply(suite, weight)
				if got, again := ids(part), ids(Shard{i, n}.Apply(reversed, weight)); len(part) > 0 && !sameSet(got, again) {
					t.Errorf("size %d shard %d/%d depends on order: %q vs %q", size, i, n, got, again)
				}
				load := 0
				for j, tt := range part {
					seen[tt.ID]++
					load += weight(tt)
					if j > 0 && slices.Index(suite, part[j-1]) > slices.Index(suite, tt) {
						t.Errorf("size %d shard %d/%d is not in suite order", size, i, n)
					}
				}
				loads = append(loads, load)
			}
			for _, tt := range suite {
				if seen[tt.ID] != 1 {
					t.Errorf("size %d, %d shards: %s is in %d shards", size, n, tt.ID, seen[tt.ID])
				}
			}
			if size >= n && slices.Max(loads)-slices.Min(loads) > 4 { // at most one test's weight apart
				t.Errorf("size %d, %d shards: loads %v are unbalanced", size, n, loads)
			}
		}
	}
}

func sameSet(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
