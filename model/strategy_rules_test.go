package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A scenario without group.protocol runs under PreferredProtocol, and the
// parser accepts exactly the protocols Supports allows: the lab's keys and
// the file format answer from the same rule.
func TestStrategyRulesMatchTheParser(t *testing.T) {
	for _, name := range StrategyNames() {
		sc, err := ParseScenario("x.yaml", []byte("topics: {t0: 3}\ngroup: {strategy: "+name+"}\nmembers: [{id: c1, topics: [t0]}]\n"))
		require.NoError(t, err, name)
		require.Equal(t, string(PreferredProtocol(name)), sc.Protocol, name)
		for _, p := range Protocols() {
			_, err := ParseScenario("x.yaml", []byte("topics: {t0: 3}\ngroup: {strategy: "+name+", protocol: "+string(p)+"}\nmembers: [{id: c1, topics: [t0]}]\n"))
			require.Equal(t, Supports(name, p), err == nil, "%s under %s: %v", name, p, err)
		}
	}
	require.Equal(t, ProtocolEager, PreferredProtocol("range"))
	require.Equal(t, ProtocolCooperative, PreferredProtocol("cooperative-sticky"))
	require.Equal(t, ProtocolConsumer, PreferredProtocol("uniform"))
	require.Equal(t, Protocol(""), PreferredProtocol("nope"))
	require.False(t, Supports("range", ProtocolCooperative))
	require.Equal(t, "cooperative-sticky", StrategyFor(ProtocolCooperative))
	require.Equal(t, "uniform", StrategyFor(ProtocolConsumer))
	require.Equal(t, []string{"range", "roundrobin", "sticky", "cooperative-sticky", "uniform"}, CompareStrategies())
}
