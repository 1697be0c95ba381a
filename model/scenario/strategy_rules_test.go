package scenario

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

// A scenario without group.protocol runs under PreferredProtocol, and the
// parser accepts exactly the protocols Supports allows: the lab's keys and
// the file format answer from the same rule.
func TestStrategyRulesMatchTheParser(t *testing.T) {
	for _, name := range kafka.StrategyNames() {
		sc, err := Parse("x.yaml", []byte("topics: {t0: 3}\ngroup: {strategy: "+name+"}\nmembers: [{id: c1, topics: [t0]}]\n"))
		require.NoError(t, err, name)
		require.Equal(t, string(kafka.PreferredProtocol(name)), sc.Protocol, name)
		for _, p := range kafka.Protocols() {
			_, err := Parse("x.yaml", []byte("topics: {t0: 3}\ngroup: {strategy: "+name+", protocol: "+string(p)+"}\nmembers: [{id: c1, topics: [t0]}]\n"))
			require.Equal(t, kafka.Supports(name, p), err == nil, "%s under %s: %v", name, p, err)
		}
	}
	require.Equal(t, kafka.ProtocolEager, kafka.PreferredProtocol("range"))
	require.Equal(t, kafka.ProtocolCooperative, kafka.PreferredProtocol("cooperative-sticky"))
	require.Equal(t, kafka.ProtocolConsumer, kafka.PreferredProtocol("uniform"))
	require.Equal(t, kafka.Protocol(""), kafka.PreferredProtocol("nope"))
	require.False(t, kafka.Supports("range", kafka.ProtocolCooperative))
	require.Equal(t, "cooperative-sticky", kafka.StrategyFor(kafka.ProtocolCooperative))
	require.Equal(t, "uniform", kafka.StrategyFor(kafka.ProtocolConsumer))
	require.Equal(t, []string{"range", "roundrobin", "sticky", "cooperative-sticky", "uniform"}, kafka.CompareStrategies())
}
