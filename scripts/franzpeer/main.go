// Command franzpeer is the peer scripts/startup.sh races `kviz assign`
// against: franz-go's own balancers (kgo.RangeBalancer, RoundRobinBalancer,
// StickyBalancer, CooperativeStickyBalancer) run once, as a franz-go
// leader runs them, on a group in the JSON `kviz assign --in` reads (topics,
// and members with id, topics, owned and generation), printing the
// assignment as JSON. It is what a script would write with franz-go alone:
// encoding/json and kgo, nothing else linked.
//
//	franzpeer range group.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

type member struct {
	ID         string             `json:"id"`
	Topics     []string           `json:"topics"`
	Owned      map[string][]int32 `json:"owned"`
	Generation *int32             `json:"generation"`
}

type group struct {
	Topics  map[string]int32 `json:"topics"`
	Members []member         `json:"members"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: franzpeer range|roundrobin|sticky|cooperative-sticky GROUP.json")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "franzpeer:", err)
		os.Exit(1)
	}
}

func run(strategy, in string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var g group
	if err := json.Unmarshal(data, &g); err != nil {
		return fmt.Errorf("%s: %v", in, err)
	}
	var bal kgo.GroupBalancer
	switch strategy {
	case "range":
		bal = kgo.RangeBalancer()
	case "roundrobin":
		bal = kgo.RoundRobinBalancer()
	case "sticky":
		bal = kgo.StickyBalancer()
	case "cooperative-sticky":
		bal = kgo.CooperativeStickyBalancer()
	default:
		return fmt.Errorf("franz-go has no %q balancer", strategy)
	}
	all := make([]string, 0, len(g.Topics))
	for t := range g.Topics {
		all = append(all, t)
	}
	sort.Strings(all)
	members := make([]kmsg.JoinGroupResponseMember, 0, len(g.Members))
	for _, m := range g.Members {
		topics := m.Topics
		if topics == nil {
			topics = all
		}
		gen := int32(-1)
		if m.Generation != nil {
			gen = *m.Generation
		}
		jm := kmsg.NewJoinGroupResponseMember()
		jm.MemberID = m.ID
		jm.ProtocolMetadata = bal.JoinGroupMetadata(slices.Sorted(slices.Values(topics)), m.Owned, gen)
		members = append(members, jm)
	}
	sort.SliceStable(members, func(i, j int) bool { return members[i].MemberID < members[j].MemberID })
	mb, _, err := bal.MemberBalancer(members)
	if err != nil {
		return err
	}
	var into kgo.IntoSyncAssignment
	if withErr, ok := mb.(kgo.GroupMemberBalancerOrError); ok {
		if into, err = withErr.BalanceOrError(g.Topics); err != nil {
			return err
		}
	} else {
		into = mb.Balance(g.Topics)
	}
	out := map[string]map[string][]int32{}
	for _, a := range into.IntoSyncAssignment() {
		var ma kmsg.ConsumerMemberAssignment
		if err := ma.ReadFrom(a.MemberAssignment); err != nil {
			return err
		}
		m := map[string][]int32{}
		for _, t := range ma.Topics {
			m[t.Topic] = t.Partitions
		}
		out[a.MemberID] = m
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	fmt.Println(string(b))
	return nil
}
