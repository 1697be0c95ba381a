package strategies

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// serverRangeReference is the range rule in closed form, written independently
// of range_server.go: in a topic with P partitions and S subscribers, the
// k-th subscriber (static members first by instance id, then by member id)
// gets P/S partitions starting at k·(P/S) + min(k, P%S), plus one if k < P%S.
func serverRangeReference(g Group) Assignment {
	members := SortMembers(g.Members)
	a := NewAssignment(members)
	for topic, n := range g.Topics {
		var subs []string
		for _, m := range members {
			if slices.Contains(m.Topics, topic) {
				subs = append(subs, m.ID)
			}
		}
		s := int32(len(subs))
		for k, id := range subs {
			k := int32(k)
			q := n / s
			from := k*q + min(k, n%s)
			length := q
			if k < n%s {
				length++
			}
			for p := from; p < from+length; p++ {
				a[id][topic] = append(a[id][topic], p)
			}
		}
	}
	return a
}

func TestRangeServerPropertyMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, rapid.Bool().Draw(t, "homogeneous"))
		a := serverAssignQuiet("range-server", g)
		serverCheckValid(t, g, a)
		if want := serverRangeReference(g); !serverSameAssignment(a, want) {
			t.Fatalf("range-server %v, reference %v", a, want)
		}
	})
}

// Without racks, the server-side range assignor answers exactly like the
// client RangeAssignor (KAFKA.md §5). Owned partitions matter to neither.
func TestRangeServerPropertyMatchesClientRange(t *testing.T) {
	client, err := Lookup("range")
	if err != nil || client.Name() != "range" {
		t.Skip("client range assignor not registered in this build")
	}
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, rapid.Bool().Draw(t, "homogeneous"))
		a := serverAssignQuiet("range-server", g)
		if want := client.Assign(g, nil).Assignment; !serverSameAssignment(a, want) {
			t.Fatalf("range-server %v, client range %v", a, want)
		}
	})
}
