package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// The classic protocol's assignment is computed by the leader, with its own
// client library's code for the selected assignor (scenario.ClientOf): Apache
// Kafka's Java client (kviz's strategies, exact), franz-go (its kgo
// balancers, strategies.FranzGo) or librdkafka, whose range and sticky
// assignors are ports of Java's and whose roundrobin walks the members as
// Java's does (releases before that fix skipped differently; not
// modelled), so kviz runs Java's. Under KIP-848 the coordinator assigns,
// whatever the members run.

// runAssignor is the leader c running the selected assignor over grp.
func (c *client) runAssignor(a strategies.Assignor, grp strategies.Group) (strategies.Result, string) {
	lib := c.w.sc.ClientOf(c.id)
	if lib == scenario.ClientFranzGo {
		res, err := strategies.FranzGo(a.KafkaName(), grp)
		if err == nil {
			label := "franz-go's " + a.KafkaName() + " balancer"
			if len(res.Explanation) > 1 {
				label += " (" + res.Explanation[1] + ")"
			}
			return res, label
		}
		c.w.fail("leader %s (franz-go): %v", c.id, err)
	}
	res := a.Assign(grp, nil)
	if lib == scenario.ClientLibrdkafka {
		return res, a.Name() + " (librdkafka's, which follows Java's)"
	}
	return res, a.Name()
}

// libraryJoin is what the member's library puts in its JoinGroup where
// libraries differ: an eager franz-go member revokes everything before it
// rejoins and forgets it (groupConsumer.revoke clears lastAssigned), so its
// subscription reports no previous assignment, even to sticky.
func (c *client) libraryJoin(req *joinRequest) {
	if c.eager && c.w.sc.ClientOf(c.id) == scenario.ClientFranzGo {
		req.prevAssigned = nil
	}
}

// ClientModel says which client library's code computes the group's
// assignments at the start: the leader's under the classic protocol, the
// coordinator's under KIP-848.
func ClientModel(sc *scenario.Scenario) string {
	if scenario.IsShare(sc) {
		return "the coordinator's " + sc.Strategy + " assignor (share group: the members' client library does not assign)"
	}
	if scenario.IsConsumer(sc) {
		return "the coordinator's " + sc.Strategy + " assignor (KIP-848: the members' client library does not assign)"
	}
	lead, ok := sc.LeaderSpec()
	if !ok {
		return fmt.Sprintf("the leader's client library, %s unless the joining members say", sc.ClientOf(""))
	}
	lib := sc.ClientOf(lead.ID)
	switch lib {
	case scenario.ClientFranzGo:
		return fmt.Sprintf("franz-go's %s balancer, the leader %s's", sc.Strategy, lead.ID)
	case scenario.ClientLibrdkafka:
		return fmt.Sprintf("librdkafka's %s, which follows Java's (the leader %s's)", sc.Strategy, lead.ID)
	}
	return fmt.Sprintf("Apache Kafka's Java %s assignor, the leader %s's", sc.Strategy, lead.ID)
}
