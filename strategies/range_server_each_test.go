package strategies

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// The server-side range assignor's AssignEach reports exactly its Assign,
// with static members (ordered by instance id, ahead of the dynamic ones)
// among them, from no targets and from the targets of the round before
// (which it must report kept).
func TestRangeServerAssignEachMatchesAssign(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, rapid.Bool().Draw(t, "homogeneous"))
		for i := range g.Members {
			if rapid.IntRange(0, 3).Draw(t, "static") == 0 {
				g.Members[i].InstanceID = fmt.Sprintf("i%d", rapid.IntRange(0, 9).Draw(t, "instance"))
			}
		}
		checkAssignEach(t, rangeServerAssignor{}, g)
		ownTargets(g, rangeServerAssignor{}.Assign(g, nil).Assignment)
		checkAssignEach(t, rangeServerAssignor{}, g)
	})
}
