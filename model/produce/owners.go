package produce

import "github.com/kvizlab/kviz/strategies"

// SetOwners makes owners the group's partition ownership (partition →
// member; absent = nobody), as the group simulation's assignment changes.
// Partitions that change hands are released first, each by its old owner
// with how(owner) — Revoked for a rebalance, Lost for a member that died;
// nil means Revoked for all — then given to the new owner. Members not yet joined join with the default
// ConsumerConfig. Work happens in topic, then partition order, so it is
// deterministic.
func (g *Group) SetOwners(owners map[strategies.TopicPartition]string, how func(member string) Handover) error {
	if how == nil {
		how = func(string) Handover { return Revoked }
	}
	current := map[strategies.TopicPartition]string{}
	for _, name := range g.order {
		for _, tp := range g.members[name].owned {
			current[tp] = name
		}
	}
	// Releases are independent per partition; one call per old owner keeps
	// a big rebalance linear.
	leaving := map[string][]strategies.TopicPartition{}
	for _, tp := range sortedTPs(current) {
		if old := current[tp]; owners[tp] != old {
			leaving[old] = append(leaving[old], tp)
		}
	}
	for _, name := range g.order {
		if tps := leaving[name]; len(tps) > 0 {
			if err := g.Release(name, tps, how(name)); err != nil {
				return err
			}
		}
	}
	for _, tp := range sortedTPs(owners) {
		name := owners[tp]
		if name == "" || current[tp] == name {
			continue
		}
		if _, ok := g.members[name]; !ok {
			if err := g.Join(name, ConsumerConfig{}); err != nil {
				return err
			}
		}
		if err := g.Own(name, []strategies.TopicPartition{tp}); err != nil {
			return err
		}
	}
	return nil
}

func sortedTPs(m map[strategies.TopicPartition]string) []strategies.TopicPartition {
	out := make([]strategies.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	strategies.SortTopicPartitions(out)
	return out
}
