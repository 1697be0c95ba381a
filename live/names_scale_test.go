package live

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// pairwiseNames is memberNames as it was before sharedPrefixes: each
// member of a shared client id compared with every other (quadratic).
func pairwiseNames(ms []Member) []string {
	clients := map[string]int{}
	for _, m := range ms {
		clients[m.ClientID]++
	}
	shared := func(m Member, taken map[string]bool) string {
		tail := func(x Member) string { return strings.TrimPrefix(x.MemberID, x.ClientID+"-") }
		mine := tail(m)
		for n := min(4, len(mine)); n <= len(mine); n++ {
			id := m.ClientID + "~" + mine[:n]
			clash := taken[id]
			for _, o := range ms {
				if o.MemberID != m.MemberID && o.ClientID == m.ClientID && strings.HasPrefix(tail(o), mine[:n]) {
					clash = true
				}
			}
			if !clash {
				return id
			}
		}
		return m.MemberID
	}
	ids := map[string]bool{}
	out := make([]string, len(ms))
	for i, m := range ms {
		id := m.ClientID
		switch {
		case id == "":
			id = m.MemberID
		case clients[id] > 1 || ids[id]:
			id = shared(m, ids)
		}
		ids[id] = true
		out[i] = id
	}
	return out
}

// TestMemberNamesAgreePairwise: the sorted-neighbour names are the
// pairwise ones, on small alphabets so tails share long starts, repeat,
// equal each other across client ids and are shorter than four.
func TestMemberNamesAgreePairwise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "n")
		var ms []Member
		for i := 0; i < n; i++ {
			client := rapid.SampledFrom([]string{"", "a", "b", "a-b"}).Draw(t, "client")
			tail := rapid.StringOfN(rapid.SampledFrom([]rune("ab-~")), 0, 7, -1).Draw(t, "tail")
			id := tail
			if rapid.Bool().Draw(t, "prefixed") {
				id = client + "-" + tail
			}
			ms = append(ms, Member{ClientID: client, MemberID: id})
		}
		if got, want := memberNames(ms), pairwiseNames(ms); !slices.Equal(got, want) {
			t.Fatalf("members %v: names %q, pairwise %q", ms, got, want)
		}
	})
}

func TestMemberNamesManyOfOneClient(t *testing.T) {
	var ms []Member
	for i := 0; i < 500; i++ {
		ms = append(ms, Member{ClientID: "app", MemberID: fmt.Sprintf("app-%08x", uint32(i)*2654435761)})
	}
	if got, want := memberNames(ms), pairwiseNames(ms); !slices.Equal(got, want) {
		t.Fatalf("names %q, pairwise %q", got, want)
	}
}
