package scenario

import (
	"maps"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
)

// A topic may give its replica assignment, as a real cluster has it (an
// import from `kviz live` does when racks matter: the rack-aware assignors
// look at where each partition's replicas are):
//
//	topics: {orders: {partitions: 3, replicas: [[0, 1], [1, 2], [2, 0]]}}
//
// partitions may be left out (it is the number of lists). Each list names
// distinct brokers of the cluster, the first the preferred leader.

// topicSpec reads topics.T as a mapping: partitions and replicas.
func (p *parser) topicSpec(name string, n *yaml.Node, sc *Scenario) error {
	what := "topics." + name
	var partsNode, repsNode *yaml.Node
	err := p.fields(n, what, []string{"partitions", "replicas"}, func(key string, _, v *yaml.Node) error {
		if key == "partitions" {
			partsNode = v
		} else {
			repsNode = v
		}
		return nil
	})
	if err != nil {
		return err
	}
	if partsNode == nil && repsNode == nil {
		return p.errf(n, "%s needs partitions (or replicas), like {partitions: 3}", what)
	}
	if partsNode != nil {
		c, err := p.int64(partsNode, what+".partitions", 1, kafka.MaxPartitions)
		if err != nil {
			return err
		}
		sc.Topics[name] = int32(c)
	}
	if repsNode == nil {
		return nil
	}
	if repsNode.Kind != yaml.SequenceNode || len(repsNode.Content) == 0 {
		return p.errf(repsNode, "%s.replicas must list each partition's brokers, like [[0, 1], [1, 2]]", what)
	}
	if partsNode != nil && int(sc.Topics[name]) != len(repsNode.Content) {
		return p.errf(repsNode, "%s.replicas lists %d partitions, but partitions is %d", what, len(repsNode.Content), sc.Topics[name])
	}
	if len(repsNode.Content) > kafka.MaxPartitions {
		return p.errf(repsNode, "%s.replicas: at most %d partitions", what, kafka.MaxPartitions)
	}
	sc.Topics[name] = int32(len(repsNode.Content))
	if p.replicas == nil {
		p.replicas = map[string]*yaml.Node{}
	}
	p.replicas[name] = repsNode
	return nil
}

// checkReplicas reads the topics' replica lists once the cluster's size is
// known: each names distinct existing brokers.
func (p *parser) checkReplicas(sc *Scenario) error {
	for _, name := range slices.Sorted(maps.Keys(p.replicas)) {
		n := p.replicas[name]
		what := "topics." + name + ".replicas"
		out := make([][]int, 0, len(n.Content))
		for part, list := range n.Content {
			if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
				return p.errf(list, "%s: partition %d needs a list of brokers, like [0, 1]", what, part)
			}
			var brokers []int
			for _, x := range list.Content {
				b, err := p.int64(x, what, 0, int64(sc.Brokers-1))
				if err != nil {
					return p.errf(x, "%s: partition %d names broker %s; the cluster has brokers 0..%d", what, part, x.Value, sc.Brokers-1)
				}
				if slices.Contains(brokers, int(b)) {
					return p.errf(x, "%s: partition %d lists broker %d twice (a broker holds one replica of a partition)", what, part, b)
				}
				brokers = append(brokers, int(b))
			}
			out = append(out, brokers)
		}
		if sc.Replicas == nil {
			sc.Replicas = map[string][][]int{}
		}
		sc.Replicas[name] = out
	}
	return nil
}
