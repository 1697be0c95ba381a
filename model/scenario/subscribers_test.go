package scenario

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Subscribers answers as a scan of each member's list would, member after
// member: lists repeated, lists long and short, and a caller's list
// changed in place after it was looked up.
func TestSubscribersAnswerAsAScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := make([]string, 40)
		for i := range names {
			names[i] = fmt.Sprintf("t%d", i)
		}
		name := rapid.SampledFrom(names)
		var subs Subscribers
		var prev []string
		for range rapid.IntRange(1, 12).Draw(t, "members") {
			var topics []string
			switch {
			case prev != nil && rapid.Bool().Draw(t, "same"):
				topics = prev // the same slice again
			case prev != nil && rapid.Bool().Draw(t, "equal"):
				topics = slices.Clone(prev) // the same names, another slice
			default:
				topics = rapid.SliceOfNDistinct(name, 0, 40, rapid.ID[string]).Draw(t, "topics")
			}
			has := subs.Of(topics)
			var nilHas func(string) bool = (*Subscribers)(nil).Of(topics)
			for _, q := range names {
				if want := slices.Contains(topics, q); has(q) != want || nilHas(q) != want {
					t.Fatalf("%v: %s is %v, want %v", topics, q, has(q), want)
				}
			}
			if len(topics) > 0 && rapid.Bool().Draw(t, "mutate") {
				topics[0] = name.Draw(t, "replacement") // the caller changes its list
			}
			prev = topics
		}
	})
}
