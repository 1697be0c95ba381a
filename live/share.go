package live

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// A share group (KIP-932, Kafka 4.x): several members may hold one
// partition, records are locked and acknowledged one by one, and the
// coordinator's only assignor is "simple" (strategies/simple.go). kviz
// reads it as kafka-share-groups.sh --describe does (ShareGroupDescribe,
// DescribeShareGroupOffsets) and shows it, and imports it as a share
// group's given start (share_scenario.go).

// protocolTypeShare is what ListGroups says of a share group.
const protocolTypeShare = "share"

// FromShare converts one group of a ShareGroupDescribe answer, as kadm
// gives it. A member's assignment is what the coordinator holds for it (its
// target: a share member takes its partitions at once, nothing is revoked
// first).
func FromShare(d kadm.DescribedShareGroup) (*Group, error) {
	if d.Err != nil {
		if errors.Is(d.Err, kerr.GroupIDNotFound) {
			return nil, groupError(d.GroupID, kerr.GroupIDNotFound)
		}
		return nil, groupError(d.GroupID, d.Err)
	}
	if d.GroupState == "Dead" {
		return nil, groupError(d.GroupID, kerr.GroupIDNotFound)
	}
	g := &Group{Group: d.GroupID, Type: Share, ProtocolType: protocolTypeShare, Protocol: d.Assignor, State: d.GroupState,
		GroupEpoch: ptr(d.GroupEpoch), AssignmentEpoch: ptr(d.AssignmentEpoch), Coordinator: ptr(d.Coordinator.NodeID),
		Members: []Member{}, RebalanceProtocol: protocolTypeShare}
	for _, rm := range d.Members {
		m := Member{MemberID: rm.MemberID, ClientID: rm.ClientID, Host: rm.ClientHost, Rack: rm.RackID,
			Topics: sortedUnique(rm.SubscribedTopicNames), Assignment: map[string][]int32{},
			MemberEpoch: ptr(rm.MemberEpoch), MemberType: ptr(MemberShare)}
		for t, ps := range rm.Assignment {
			for p := range ps {
				m.Assignment[t] = mergeSorted(m.Assignment[t], []int32{p})
			}
		}
		g.Members = append(g.Members, m)
	}
	sortMembers(g.Members)
	return g.Named(), nil
}

// share reads a share group: its description, the partition counts and
// ids of its topics, the share-partition start offsets and lag, and the log
// end offsets.
func (r *Reader) share(ctx context.Context, name string) (*Group, error) {
	ds, err := r.adm.DescribeShareGroups(ctx, name)
	if err != nil {
		return nil, r.clusterError(err)
	}
	d, ok := ds[name]
	if !ok {
		return nil, groupError(name, kerr.GroupIDNotFound)
	}
	g, err := FromShare(d)
	if err != nil {
		return nil, err
	}
	if g.Configs, err = r.shareConfigs(ctx, name, g.Coordinator); err != nil {
		return nil, err
	}
	offs, err := r.adm.DescribeShareGroupOffsets(ctx, name)
	if err != nil {
		return nil, r.clusterError(err)
	}
	starts := map[string]map[int32]int64{}
	lags := map[string]map[int32]int64{}
	if o, ok := offs[name]; ok && o.Err == nil {
		o.Offsets.Each(func(so kadm.ShareOffset) {
			if so.Err != nil || so.StartOffset < 0 {
				return
			}
			if starts[so.Topic] == nil {
				starts[so.Topic], lags[so.Topic] = map[int32]int64{}, map[int32]int64{}
			}
			starts[so.Topic][so.Partition] = so.StartOffset
			if so.Lag >= 0 { // DescribeShareGroupOffsets v1 (KIP-1226); -1 before
				lags[so.Topic][so.Partition] = so.Lag
			}
		})
	}
	counts, ends, ids, err := r.around(ctx, g, starts, nil, true)
	if err != nil {
		return nil, err
	}
	g.TopicIDs = map[string]string{}
	for id, t := range ids {
		if _, ok := counts[t]; ok {
			g.TopicIDs[t] = base64.RawURLEncoding.EncodeToString(id[:])
		}
	}
	g.AddCluster(counts, nil, ends)
	g.addShareOffsets(starts, lags)
	return g, nil
}

// addShareOffsets puts the share-partition start offsets and lags into
// Offsets: a share group commits no offsets, so committed stays null.
func (g *Group) addShareOffsets(starts, lags map[string]map[int32]int64) {
	for i := range g.Offsets {
		o := &g.Offsets[i]
		if s, ok := starts[o.Topic][o.Partition]; ok {
			o.StartOffset = ptr(s)
		}
		if l, ok := lags[o.Topic][o.Partition]; ok {
			o.Lag = ptr(l)
		}
	}
}

// sharers lists the members holding each partition of a share group, by
// topic and partition; for the table.
func (g *Group) sharers() map[string][]*Member {
	out := map[string][]*Member{}
	for i := range g.Members {
		for t, ps := range g.Members[i].Assignment {
			for _, p := range ps {
				k := fmt.Sprintf("%s\x00%d", t, p)
				out[k] = append(out[k], &g.Members[i])
			}
		}
	}
	return out
}
