package kafka

import (
	"github.com/kvizlab/kviz/strategies"
)

// The lab asks these questions about strategies and protocols; the answers
// are strategies/' one list and rules (registry.go), re-exported so that
// tui/ needs no assignor package.

// Protocol is a rebalance protocol: eager and cooperative (classic), or
// consumer (KIP-848).
type Protocol = strategies.Protocol

// The rebalance protocols.
const (
	ProtocolEager       = strategies.Eager
	ProtocolCooperative = strategies.Cooperative
	ProtocolConsumer    = strategies.Consumer
	// ProtocolShare is a share group's (KIP-932): group.type share.
	ProtocolShare = strategies.Share
)

// Protocols lists the protocols in the order the lab cycles through them.
func Protocols() []Protocol { return strategies.Protocols() }

// StrategyNames lists kviz's strategies in teaching order.
func StrategyNames() []string { return strategies.Names() }

// CompareStrategies lists the strategies compare sets side by side by
// default, each under its preferred protocol.
func CompareStrategies() []string { return strategies.CompareNames() }

// PreferredProtocol is the protocol a strategy runs under unless told (a
// scenario without group.protocol); "" for an unknown strategy.
func PreferredProtocol(strategy string) Protocol {
	a, err := strategies.Lookup(strategy)
	if err != nil {
		return ""
	}
	return strategies.Preferred(a)
}

// Supports reports whether a strategy can run under protocol p.
func Supports(strategy string, p Protocol) bool {
	a, err := strategies.Lookup(strategy)
	return err == nil && strategies.Supports(a, p)
}

// StrategyProtocols lists the protocols a strategy can run under, in the
// lab's order (Protocols); nil for an unknown strategy.
func StrategyProtocols(strategy string) []Protocol {
	var out []Protocol
	for _, p := range Protocols() {
		if Supports(strategy, p) {
			out = append(out, p)
		}
	}
	return out
}

// StrategyFor is the strategy to switch to for protocol p when the current
// one cannot run under it: the first whose preferred protocol is p, else
// the first that supports it; "" when none does.
func StrategyFor(p Protocol) string { return strategies.StrategyFor(p) }
