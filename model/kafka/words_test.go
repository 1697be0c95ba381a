package kafka_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

func TestDomainWords(t *testing.T) {
	require.Equal(t, "Assigning", kafka.KAssigning.Title(), "ConsumerGroupState.toString")
	require.Equal(t, "PreparingRebalance", kafka.PreparingRebalance.Title())
	require.Equal(t, "JoinGroup", kafka.KindJoinGroupRequest.API())
	require.Equal(t, "ConsumerGroupHeartbeat", kafka.KindConsumerGroupHeartbeatResponse.API())
	require.True(t, kafka.KindJoinGroupRequest.IsRequest())
	require.False(t, kafka.KindJoinGroupResponse.IsRequest())
	require.Equal(t, "", kafka.KindMemberStarted.API())
	require.True(t, kafka.KindPartitionsLost.IsCallback())
	require.False(t, kafka.KindMemberCrashed.IsCallback())
	require.Equal(t, "onPartitionsRevoked", kafka.KindPartitionsRevoked.ListenerMethod())
}
