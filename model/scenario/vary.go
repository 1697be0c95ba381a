package scenario

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// WithStrategy is the scenario under another strategy and protocol: exactly
// what the file would be with `strategy:` and `protocol:` under group: set
// to these values. Every default that depends on them (the heartbeat
// interval under the consumer protocol, the protocol a strategy prefers when
// protocol is "") is derived again by the parser's own rule, and what the
// parser would refuse is refused with its message. The original is
// unchanged; the copy shares nothing mutable with it.
// A given start written for the other protocol family is refused, as the
// parser refuses it; AcrossFamilies converts it instead.
func (sc *Scenario) WithStrategy(strategy, protocol string) (*Scenario, error) {
	return sc.vary(strategy, protocol, false)
}

// AcrossFamilies is WithStrategy for compare: a given start under a
// protocol of the other family (classic ↔ KIP-848) is converted as Kafka's
// online upgrade and downgrade convert a group (family.go), so every
// strategy starts from the same real state.
func (sc *Scenario) AcrossFamilies(strategy, protocol string) (*Scenario, error) {
	return sc.vary(strategy, protocol, true)
}

func (sc *Scenario) vary(strategy, protocol string, convert bool) (*Scenario, error) {
	cp := sc.Clone()
	if convert {
		target := protocol
		if a, err := strategies.Lookup(strategy); err == nil && target == "" {
			target = string(strategies.Preferred(a))
		}
		cp.toFamily(target)
	}
	cp.Strategy, cp.Protocol = strategy, protocol
	if gerr := deriveGroup(cp); gerr != nil {
		return nil, gerr
	}
	// The parser refuses member assignor lists of consumer-protocol members
	// (memberSpec) and settings such a member cannot have (CheckSettings);
	// a variation must too.
	for _, m := range cp.Members {
		if m.Strategies != nil && cp.MemberProtocol(m.Settings) == ProtocolConsumer {
			return nil, fmt.Errorf("members.strategies: %s (member %s)", noMemberAssignors, m.ID)
		}
		if err := CheckSettings(cp, m.ID, m.Settings); err != nil {
			return nil, fmt.Errorf("members: %v", err)
		}
	}
	for _, ev := range cp.Timeline {
		if ev.Strategies != nil && cp.MemberProtocol(ev.Settings) == ProtocolConsumer {
			return nil, fmt.Errorf("join.strategies: %s (the join of %s at %d ms)", noMemberAssignors, ev.Member, ev.AtMs)
		}
		if err := CheckEvent(cp, ev); err != nil {
			return nil, fmt.Errorf("timeline at %d ms: %v", ev.AtMs, err)
		}
	}
	return cp, nil
}

// clone copies the scenario deeply enough that changing the copy's group
// settings, members or timeline leaves the original as it was.
func (sc *Scenario) Clone() *Scenario {
	cp := *sc
	cp.Topics = maps.Clone(sc.Topics)
	cp.Members = slices.Clone(sc.Members)
	cp.Timeline = slices.Clone(sc.Timeline)
	cp.groupSet = maps.Clone(sc.groupSet)
	cp.TimingSources = maps.Clone(sc.TimingSources)
	if sc.Share != nil { // deriving a variation's defaults writes to it
		sh := *sc.Share
		cp.Share = &sh
	}
	return &cp
}
