package scenario

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/strategies"
)

// Racks (KIP-881, Kafka 3.5): a member's client.rack (members.rack, or a
// join's rack) and the brokers' broker.rack (cluster.racks). The classic
// leader hands both to its assignor: each member's rack in its
// subscription (ConsumerProtocolSubscription v3 rack_id) and each
// partition's replica racks from its metadata. Range and the sticky
// family then prefer partitions with a replica on the member's rack when
// some partition is not on every rack; roundrobin ignores racks, and so do
// the KIP-848 server assignors (KAFKA-16694 removed rack awareness from
// uniform and range), so the consumer protocol's coordinator is not given
// them.

// brokerRacks reads cluster.racks: one non-empty rack per broker, in
// broker id order. Kafka's rack-aware placement (AdminUtils) refuses a
// cluster where only some brokers have a rack, so a scenario gives all or
// none.
func (p *parser) brokerRacks(n *yaml.Node, sc *Scenario) error {
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "cluster.racks must list each broker's rack in broker id order, like [r1, r2, r3]")
	}
	if len(n.Content) != sc.Brokers {
		return p.errf(n, "cluster.racks lists %d racks for %d brokers: give one per broker, in broker id order (Kafka's rack-aware placement needs a rack on every broker or on none)",
			len(n.Content), sc.Brokers)
	}
	racks := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		r, err := p.rack(c, "cluster.racks")
		if err != nil {
			return err
		}
		racks = append(racks, r)
	}
	sc.BrokerRacks = racks
	return nil
}

// checkMemberRacks refuses a client id given two racks: a rack is the
// process's configuration, which a join of the same id would repeat.
func (p *parser) checkMemberRacks(sc *Scenario) error {
	racks := map[string]string{}
	for _, m := range sc.Members {
		racks[m.ID] = m.Rack
	}
	for _, ev := range sc.Timeline {
		if ev.Kind != "join" {
			continue
		}
		if r, seen := racks[ev.Member]; seen && r != ev.Rack {
			return fmt.Errorf("%s:%d: join: %s joins with rack %q but was given rack %q before; a member's client.rack is its configuration, the same in every run of it",
				p.file, ev.line, ev.Member, ev.Rack, r)
		}
		racks[ev.Member] = ev.Rack
	}
	return nil
}

// BrokerList is the scenario's brokers with their racks, for model/cluster.
func (sc *Scenario) BrokerList() []strategies.BrokerRack {
	out := make([]strategies.BrokerRack, sc.Brokers)
	for i := range out {
		out[i].ID = i
		if i < len(sc.BrokerRacks) {
			out[i].Rack = sc.BrokerRacks[i]
		}
	}
	return out
}

// MemberRacks maps client ids to their client.rack, nil when no member
// has one (the usual scenario: nothing to look up).
func (sc *Scenario) MemberRacks() map[string]string {
	var out map[string]string
	put := func(id, rack string) {
		if rack == "" {
			return
		}
		if out == nil {
			out = map[string]string{}
		}
		out[id] = rack
	}
	for _, m := range sc.Members {
		put(m.ID, m.Rack)
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" {
			put(ev.Member, ev.Rack)
		}
	}
	return out
}
