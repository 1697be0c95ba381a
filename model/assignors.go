package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// defaultClientAssignors is partition.assignment.strategy's default (3.0 on).
var defaultClientAssignors = scenario.DefaultClassicAssignors

// setStrategies sets the client's partition.assignment.strategy and, from
// it, its rebalance protocol: the highest one every listed assignor
// supports (ConsumerCoordinator's constructor). The default
// [range, cooperative-sticky] therefore runs eager. A group whose scenario
// forces the eager protocol keeps it for members using the group's list.
func (c *client) setStrategies(names []string) {
	if names == nil && scenario.IsConsumer(c.w.sc) && !c.consumerProto {
		// A classic member of a consumer-protocol scenario: Kafka's
		// default partition.assignment.strategy.
		names = defaultClientAssignors
	}
	if names == nil {
		names = []string{c.w.sc.Strategy}
		c.eager = c.w.eager
	} else {
		c.eager = false
		for _, n := range names {
			a, err := strategies.Lookup(n)
			if err != nil || !strategies.Supports(a, kafka.ProtocolCooperative) {
				c.eager = true
			}
		}
	}
	c.strategies = names
}

// supportsProtocols: a joiner must share an assignor with every member
// (ClassicGroup.supportsProtocols); an empty group takes anything.
func (g *classicGroup) supportsProtocols(protocols []string) bool {
	if len(g.members) == 0 {
		return true
	}
	return slices.ContainsFunc(protocols, g.supportedByAll)
}

// countProtocols adds d to the count of each assignor in protocols (each
// name once: a member lists an assignor or does not).
func (g *classicGroup) countProtocols(protocols []string, d int) {
	for i, p := range protocols {
		if slices.Contains(protocols[:i], p) {
			continue
		}
		if g.supported[p] += d; g.supported[p] == 0 {
			delete(g.supported, p)
		}
	}
}

// selectProtocol is the assignor vote (ClassicGroup.selectProtocol): the
// candidates are the assignors every member supports; each member votes
// for its first candidate; most votes wins, a tie going to the first in
// java.util.HashMap order of the names.
func (g *classicGroup) selectProtocol() (strategies.Assignor, string) {
	ids := g.order.Keys()
	var candidates []string
	for _, p := range g.members[ids[0]].protocols {
		if g.supportedByAll(p) {
			candidates = append(candidates, p)
		}
	}
	votes := map[string]int{}
	tally := newIDOrder()
	for _, id := range ids {
		for _, p := range g.members[id].protocols {
			if slices.Contains(candidates, p) {
				votes[p]++
				tally.Put(p)
				break
			}
		}
	}
	best := ""
	for _, p := range tally.Keys() {
		if best == "" || votes[p] > votes[best] {
			best = p
		}
	}
	a, err := strategies.Lookup(best)
	if err != nil {
		g.w.fail("selected assignor %q: %v", best, err)
		return g.w.assignor, ""
	}
	why := ""
	if len(candidates) > 1 || len(votes) > 1 {
		var parts []string
		for _, p := range tally.Keys() {
			parts = append(parts, fmt.Sprintf("%s %d", p, votes[p]))
		}
		why = fmt.Sprintf(" (candidates %v; votes: %s)", candidates, strings.Join(parts, ", "))
	}
	return a, why
}

func (g *classicGroup) supportedByAll(p string) bool {
	return g.supported[p] == len(g.members)
}
