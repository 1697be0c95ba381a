package live

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// AssignInput is a group as `kviz assign` reads it (cli/assign_input.go's
// contract): the topics with their ids, the members by their real member
// ids (the assignors sort and hash them) with their subscriptions and what
// each holds now. For a share group, `kviz assign --strategy simple
// --kafka-version V` on it, with a member taken out or added, is the
// coordinator's next target: `kviz live --assign-input` prints it.
type AssignInput struct {
	Topics   map[string]int32    `json:"topics"`
	TopicIDs map[string]string   `json:"topic_ids,omitempty"`
	Members  []AssignInputMember `json:"members"`
}

// AssignInputMember is one member of AssignInput.
type AssignInputMember struct {
	ID         string             `json:"id"`
	Topics     []string           `json:"topics"`
	Owned      map[string][]int32 `json:"owned,omitempty"`
	Generation *int32             `json:"generation,omitempty"`
	Rack       string             `json:"rack,omitempty"`
	Instance   string             `json:"instance,omitempty"`
}

// AssignInput is the group as `kviz assign` input. Members come in member
// id order: Kafka hands the assignor its members in the order of the
// group's own map, which no API shows (it matters only where member ids'
// hash codes collide). Partitions of topics the cluster no longer has stay
// out, as the coordinator's metadata image has no id for them.
func (g *Group) AssignInput() AssignInput {
	in := AssignInput{Topics: map[string]int32{}, Members: []AssignInputMember{}}
	for t, n := range g.Topics {
		in.Topics[t] = n
	}
	if len(g.TopicIDs) > 0 {
		in.TopicIDs = map[string]string{}
		for t, id := range g.TopicIDs {
			if _, ok := g.Topics[t]; ok {
				in.TopicIDs[t] = id
			}
		}
	}
	for _, m := range g.Members {
		am := AssignInputMember{ID: m.MemberID, Topics: slices.Clone(m.Topics)}
		if am.Topics == nil {
			am.Topics = []string{}
		}
		for t, ps := range m.Assignment {
			if _, ok := g.Topics[t]; ok && len(ps) > 0 {
				if am.Owned == nil {
					am.Owned = map[string][]int32{}
				}
				am.Owned[t] = slices.Clone(ps)
			}
		}
		if g.Type == Classic {
			am.Generation = m.OwnedGeneration
		}
		if m.Rack != nil {
			am.Rack = *m.Rack
		}
		if m.InstanceID != nil {
			am.Instance = *m.InstanceID
		}
		in.Members = append(in.Members, am)
	}
	return in
}

// Group is the input as the assignors take it. A topic id that does not
// parse is an error naming the topic.
func (in AssignInput) Group(version strategies.ClientVersion) (strategies.Group, error) {
	g := strategies.Group{Topics: map[string]int32{}, Version: version}
	for t, n := range in.Topics {
		g.Topics[t] = n
	}
	for t, s := range in.TopicIDs {
		id, err := strategies.ParseTopicID(s)
		if err != nil {
			return g, fmt.Errorf("topic %s: %v", t, err)
		}
		if g.TopicIDs == nil {
			g.TopicIDs = map[string]strategies.TopicID{}
		}
		g.TopicIDs[t] = id
	}
	for _, m := range in.Members {
		sm := strategies.Member{ID: m.ID, InstanceID: m.Instance, Rack: m.Rack, Topics: slices.Clone(m.Topics), Generation: strategies.NoGeneration}
		if m.Generation != nil {
			sm.Generation = *m.Generation
		}
		for _, t := range strategies.SortedTopics(m.Owned) {
			for _, p := range m.Owned[t] {
				sm.Owned = append(sm.Owned, strategies.TopicPartition{Topic: t, Partition: p})
			}
		}
		g.Members = append(g.Members, sm)
	}
	return g, nil
}

// ShareChange is one membership change of a share group: a member joins
// (Topics its subscription) or leaves.
type ShareChange struct {
	Join   bool
	Member string   // the member id
	Topics []string // a joiner's subscription
}

// PredictShare is a share group's next target assignment after the change,
// by Kafka's simple assignor of the given release (strategies/simple.go):
// what the coordinator computes when the change bumps the group epoch. A
// share member takes its target at once (nothing is revoked first), so it
// is also what each member holds once it has heartbeated.
func (g *Group) PredictShare(ch ShareChange, version strategies.ClientVersion) (strategies.Result, error) {
	if g.Type != Share {
		return strategies.Result{}, fmt.Errorf("group %q is a %s group, not a share group", g.Group, g.Type)
	}
	in := g.AssignInput()
	i := slices.IndexFunc(in.Members, func(m AssignInputMember) bool { return m.ID == ch.Member })
	switch {
	case ch.Join && i >= 0:
		return strategies.Result{}, fmt.Errorf("group %q: %s is a member already", g.Group, ch.Member)
	case ch.Join:
		in.Members = append(in.Members, AssignInputMember{ID: ch.Member, Topics: sortedUnique(ch.Topics)})
	case i < 0:
		return strategies.Result{}, fmt.Errorf("group %q has no member %s", g.Group, ch.Member)
	default:
		in.Members = slices.Delete(in.Members, i, i+1)
	}
	sg, err := in.Group(version)
	if err != nil {
		return strategies.Result{}, fmt.Errorf("group %q: %v", g.Group, err)
	}
	a, err := strategies.LookupAny("simple")
	if err != nil {
		return strategies.Result{}, err
	}
	res := a.Assign(sg, strategies.NewExplainer(0))
	return res, res.Err
}
