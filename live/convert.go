package live

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kvizlab/kviz/strategies"
)

// protocolTypeConsumer is the classic protocol type of Kafka consumers
// (Connect and Streams' own clients use others).
const protocolTypeConsumer = "consumer"

// FromClassic converts one group of a DescribeGroups response. Members come
// in member id order (kafka-consumer-groups.sh keeps the response order,
// which is the coordinator's HashMap order; a sorted one reads better and
// is stable). A group of another protocol type (connect) is refused: its
// members' metadata is not a consumer subscription.
func FromClassic(rg kmsg.DescribeGroupsResponseGroup, coordinator int32) (*Group, error) {
	if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
		return nil, groupError(rg.Group, err)
	}
	if rg.State == "Dead" {
		return nil, groupError(rg.Group, kerr.GroupIDNotFound)
	}
	if rg.ProtocolType != "" && rg.ProtocolType != protocolTypeConsumer {
		return nil, fmt.Errorf("group %q has protocol type %q: kviz reads consumer groups only", rg.Group, rg.ProtocolType)
	}
	g := &Group{Group: rg.Group, Type: Classic, ProtocolType: protocolTypeConsumer, Protocol: rg.Protocol,
		State: rg.State, Coordinator: ptr(coordinator), Members: []Member{}}
	g.RebalanceProtocol = classicRebalanceProtocol(rg.Protocol)
	newest := int32(-1)
	for _, rm := range rg.Members {
		m := Member{MemberID: rm.MemberID, InstanceID: rm.InstanceID, ClientID: rm.ClientID, Host: rm.ClientHost,
			Topics: []string{}, Assignment: map[string][]int32{}, MemberType: ptr(MemberClassic)}
		var meta kmsg.ConsumerMemberMetadata
		if len(rm.ProtocolMetadata) > 0 {
			if err := meta.ReadFrom(rm.ProtocolMetadata); err != nil {
				return nil, fmt.Errorf("group %q: member %s sent subscription metadata kviz cannot read: %v", rg.Group, rm.MemberID, err)
			}
			m.Topics = sortedUnique(meta.Topics)
			m.Rack = meta.Rack
			if meta.Version >= 2 && meta.Generation >= 0 {
				m.OwnedGeneration = ptr(meta.Generation)
				newest = max(newest, meta.Generation)
			}
		}
		if len(rm.MemberAssignment) > 0 {
			var a kmsg.ConsumerMemberAssignment
			if err := a.ReadFrom(rm.MemberAssignment); err != nil {
				return nil, fmt.Errorf("group %q: member %s has an assignment kviz cannot read: %v", rg.Group, rm.MemberID, err)
			}
			for _, t := range a.Topics {
				m.Assignment[t.Topic] = mergeSorted(m.Assignment[t.Topic], t.Partitions)
			}
		}
		g.Members = append(g.Members, m)
	}
	sortMembers(g.Members)
	g.Generation, g.Unknown = classicGeneration(g, newest)
	return g.Named(), nil
}

// classicGeneration is the best the read-only APIs tell about a classic
// group's generation: DescribeGroups does not return it (only JoinGroup and
// SyncGroup do), but members of Kafka 3.x+ clients (and franz-go) put the
// generation they owned their partitions at in their subscription
// (KIP-792). A Stable group with assignments is at least one past the
// newest of those, and at least 1.
func classicGeneration(g *Group, newest int32) (*int32, []string) {
	if len(g.Members) == 0 {
		return nil, nil
	}
	if newest < 0 && g.State != "Stable" {
		return nil, []string{fmt.Sprintf("generation: DescribeGroups does not return a classic group's generation, and a group %s shows no member metadata that would bound it", g.State)}
	}
	gen := max(newest+1, 1)
	return ptr(gen), []string{fmt.Sprintf(
		"generation: DescribeGroups does not return a classic group's generation; %d is one past the newest generation its members reported owning partitions at (a lower bound)", gen)}
}

// classicRebalanceProtocol is the protocol the chosen assignor runs under:
// the last (preferred) one it supports, as the classic consumer picks the
// highest protocol every assignor of its list supports.
func classicRebalanceProtocol(assignor string) string {
	a, err := strategies.Lookup(assignor)
	if err != nil || assignor == "" {
		return ""
	}
	return string(strategies.Preferred(a))
}

// FromConsumer converts one group of a ConsumerGroupDescribe response
// (KIP-848). names maps topic ids to names, from Metadata: the response
// carries names too, but an id is what the coordinator keeps, so a name is
// taken from metadata first and an id metadata does not know (a deleted
// topic) keeps the response's name, or its id.
func FromConsumer(rg kmsg.ConsumerGroupDescribeResponseGroup, coordinator int32, names map[[16]byte]string) (*Group, error) {
	if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
		return nil, groupError(rg.Group, err)
	}
	if rg.State == "Dead" {
		return nil, groupError(rg.Group, kerr.GroupIDNotFound)
	}
	g := &Group{Group: rg.Group, Type: Consumer, ProtocolType: protocolTypeConsumer, Protocol: rg.AssignorName,
		State: rg.State, GroupEpoch: ptr(rg.Epoch), AssignmentEpoch: ptr(rg.AssignmentEpoch),
		Coordinator: ptr(coordinator), Members: []Member{}, RebalanceProtocol: string(strategies.Consumer)}
	for _, rm := range rg.Members {
		m := Member{MemberID: rm.MemberID, InstanceID: rm.InstanceID, ClientID: rm.ClientID, Host: rm.ClientHost,
			Rack: rm.RackID, Topics: sortedUnique(rm.SubscribedTopics), Regex: rm.SubscribedTopicRegex,
			Assignment: assignmentByName(rm.Assignment, names), Target: assignmentByName(rm.TargetAssignment, names),
			MemberEpoch: ptr(rm.MemberEpoch), MemberType: memberType(rm.MemberType)}
		g.Members = append(g.Members, m)
	}
	sortMembers(g.Members)
	return g.Named(), nil
}

// memberType is ConsumerGroupDescribe's MemberType (v1+): 0 a classic
// member of a consumer group (KIP-848's online migration: it still sends
// JoinGroup, SyncGroup and Heartbeat), 1 a consumer-protocol member, -1 (or
// a v0 answer) unknown. Kafka's describe prints it as UPGRADED (true for
// consumer) when the group has both.
func memberType(t int8) *string {
	switch t {
	case 0:
		return ptr(MemberClassic)
	case 1:
		return ptr(MemberConsumer)
	}
	return nil
}

// Mixed reports whether a consumer group has classic and consumer-protocol
// members at once: a group in KIP-848's online migration.
func (g *Group) Mixed() bool {
	var classic, consumer bool
	for _, m := range g.Members {
		if m.MemberType != nil {
			classic = classic || *m.MemberType == MemberClassic
			consumer = consumer || *m.MemberType == MemberConsumer
		}
	}
	return classic && consumer
}

func assignmentByName(a kmsg.Assignment, names map[[16]byte]string) map[string][]int32 {
	out := map[string][]int32{}
	for _, tp := range a.TopicPartitions {
		name, ok := names[tp.TopicID]
		if !ok {
			name = tp.Topic
		}
		if name == "" {
			name = hex.EncodeToString(tp.TopicID[:])
		}
		out[name] = mergeSorted(out[name], tp.Partitions)
	}
	return out
}

// TopicsTouched lists every topic the group's members subscribe to or own,
// sorted: the topics whose partition counts and offsets kviz reads.
func (g *Group) TopicsTouched() []string {
	ts := topicSet{}
	for _, m := range g.Members {
		ts.add(m.Topics...)
		for t := range m.Assignment {
			ts.add(t)
		}
		for t := range m.Target {
			ts.add(t)
		}
	}
	return ts.sorted()
}

// AddCluster fills what the cluster says around the group: the partition
// counts of the topics it touches or has committed offsets for (counts
// holds what Metadata returned), and per partition the committed offset,
// the log end offset and the lag (log end minus committed, as
// kafka-consumer-groups.sh computes it; none without a commit).
func (g *Group) AddCluster(counts map[string]int32, committed, ends map[string]map[int32]int64) {
	topics := g.TopicsTouched()
	for t := range committed {
		topics = append(topics, t)
	}
	topics = sortedUnique(topics)
	total := 0
	for _, t := range topics {
		total += int(max(counts[t], 0))
	}
	g.Topics, g.MissingTopics, g.Offsets = map[string]int32{}, nil, make([]Offset, 0, total)
	// The offsets' numbers share one block, never grown (at most three a
	// partition), so the pointers into it stay put: three allocations a
	// partition were a tenth of a 500,000-partition read.
	vals := make([]int64, 0, 3*total)
	num := func(v int64) *int64 {
		vals = append(vals, v)
		return &vals[len(vals)-1]
	}
	for _, t := range topics {
		n, ok := counts[t]
		if !ok {
			g.MissingTopics = append(g.MissingTopics, t)
			continue
		}
		g.Topics[t] = n
		tc, te := committed[t], ends[t]
		for p := int32(0); p < n; p++ {
			o := Offset{Topic: t, Partition: p}
			if c, ok := tc[p]; ok && c >= 0 {
				o.Committed = num(c)
			}
			if e, ok := te[p]; ok {
				o.LogEnd = num(e)
			}
			if o.Committed != nil && o.LogEnd != nil {
				o.Lag = num(*o.LogEnd - *o.Committed)
			}
			g.Offsets = append(g.Offsets, o)
		}
	}
}

// errNoGroup is the cause of a group-does-not-exist error.
var errNoGroup = errors.New("no such group")

func groupError(group string, err error) error {
	if err == kerr.GroupIDNotFound {
		return fmt.Errorf("group %q does not exist on this cluster%w", group, quiet{errNoGroup})
	}
	return fmt.Errorf("group %q: %v", group, err)
}

// quiet wraps an error for errors.Is without adding to the message.
type quiet struct{ err error }

func (q quiet) Error() string { return "" }
func (q quiet) Unwrap() error { return q.err }

func sortMembers(ms []Member) {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].MemberID < ms[j].MemberID })
}

func sortedUnique(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}

func mergeSorted(a, b []int32) []int32 {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
