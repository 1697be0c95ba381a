package live

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Kafka's defaults where the group does not tell: three brokers is kviz's
// own default cluster; offsets.topic.num.partitions is 50.
const (
	defaultBrokers           = 3
	defaultOffsetsPartitions = 50
)

// Import turns the group into a scenario that starts from its state: the
// topics and partition counts, the members with their subscriptions,
// instance ids and real member ids (assignors sort and hash member ids,
// so a prediction needs the real ones), what each owns and the generation
// (KIP-848: group epoch), the strategy and protocol. A member's scenario id
// is its client id where that is unique in the group, else its member id.
// It returns the scenario as a file (YAML), the parsed scenario, and the
// notes on what could not be carried over exactly (also in the file's
// notes:). The YAML is a normal scenario file.
func (g *Group) Import() ([]byte, *scenario.Scenario, []string, error) {
	if g.Type == Share {
		return g.importShare() // share_scenario.go
	}
	strategy, protocol, notes, err := g.strategy()
	if err != nil {
		return nil, nil, nil, err
	}
	notes = append(slices.Clone(g.Unknown), notes...)
	sc := g.newScenario("group", strategy, protocol)
	notes = append(notes, g.carriedTopics(sc.Topics)...)
	var rnotes []string
	sc.BrokerRacks, rnotes = g.brokerRacks()
	notes = append(notes, rnotes...)
	if len(sc.Topics) == 0 {
		return nil, nil, nil, g.noTopics()
	}
	ms, mnotes := g.memberSpecs(sc.Topics)
	notes = append(notes, mnotes...)
	sc.Members = ms
	if sc.BrokerRacks != nil && slices.ContainsFunc(ms, func(m scenario.MemberSpec) bool { return m.Rack != "" }) {
		// where the replicas are decides KIP-881's rack-aware assignment
		sc.Replicas, rnotes = g.replicaLists(sc)
		notes = append(notes, rnotes...)
	}
	notes = g.emptiedStart(sc, notes)
	if len(ms) > 0 && g.caughtPhase() != "" {
		notes = g.caughtStart(sc, notes)
	} else if len(ms) > 0 {
		sc.Generation, notes = g.startEpoch(notes)
		notes = g.reconciling(sc, notes)
	}
	tnotes, err := g.applyTimings(sc)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("group %q: %v", g.Group, err)
	}
	notes = append(notes, tnotes...)
	return g.writeScenario(sc, notes)
}

// newScenario is the import's scenario before its group: the cluster, the
// topics, the group id, strategy and protocol.
func (g *Group) newScenario(kind, strategy, protocol string) *scenario.Scenario {
	sc := &scenario.Scenario{Name: "live-" + g.Group, Title: fmt.Sprintf("%s %s, imported from the cluster", kind, g.Group),
		Seed: 1, Brokers: g.Brokers, OffsetsPartitions: g.OffsetsPartitions, Topics: map[string]int32{},
		GroupID: g.Group, Strategy: strategy, Protocol: protocol}
	if sc.Brokers <= 0 {
		sc.Brokers = defaultBrokers
	}
	if sc.OffsetsPartitions <= 0 {
		sc.OffsetsPartitions = defaultOffsetsPartitions
	}
	for t, n := range g.Topics {
		sc.Topics[t] = n
	}
	return sc
}

// writeScenario derives the imported scenario's group as the parser would,
// writes it with its notes and reads it back: the import is a file the
// parser takes.
func (g *Group) writeScenario(sc *scenario.Scenario, notes []string) ([]byte, *scenario.Scenario, []string, error) {
	if len(notes) > 0 {
		sc.Notes = "Imported: " + strings.Join(notes, "; ") + "."
	}
	sc, err := sc.WithStrategy(sc.Strategy, sc.Protocol) // Kafka's defaults, as the parser derives them
	if err != nil {
		return nil, nil, nil, fmt.Errorf("group %q: %v", g.Group, err)
	}
	yml, err := scenario.Format(sc)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("group %q: %v", g.Group, err)
	}
	parsed, err := scenario.Parse(sc.Name+".yaml", yml)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("group %q cannot be a scenario: %v", g.Group, err)
	}
	return yml, parsed, notes, nil
}

// subscription is a member's subscription as the scenario holds it, and
// the topics of it the cluster does not have.
type subscription struct {
	topics  []string
	missing []string
}

// next is the subscription of a member subscribed to topics, the last
// member's again when the names are the same: the members of a group
// mostly share one, and 10,000 copies of a 1,000-topic list, each name
// looked up, were a tenth of a second and 160 MB (issue 21). The members
// may share the list: nothing changes a MemberSpec's Topics in place (the
// parser shares its every-topic list the same way).
func (s subscription) next(topics []string, exist map[string]int32) subscription {
	if len(topics) == 0 {
		return subscription{}
	}
	if slices.Equal(s.topics, topics) {
		return s
	}
	n := subscription{topics: slices.Clone(topics)}
	for _, t := range topics {
		if _, ok := exist[t]; !ok {
			n.missing = append(n.missing, t)
		}
	}
	return n
}

// noTopics says why a group gives the scenario no topic: what the source
// did not show, or that the topics it names are gone.
func (g *Group) noTopics() error {
	switch {
	case len(g.MissingTopics) > 0:
		return fmt.Errorf("group %q: none of its topics exists on the cluster (%s), so there is nothing to assign", g.Group, strings.Join(g.MissingTopics, ", "))
	case slices.ContainsFunc(g.Members, func(m Member) bool { return m.PartitionCount != nil }):
		return fmt.Errorf("group %q: the output names no topic: --members without --verbose prints how many partitions each member holds, not which; paste --members --verbose or --offsets as well", g.Group)
	case g.Type == Classic && !g.Settled() && len(g.Members) > 0:
		return fmt.Errorf("group %q is %s: a classic group shows no subscriptions or assignments until it is Stable, and it has committed no offsets that would name its topics; read it again once the rebalance ends", g.Group, g.State)
	}
	return fmt.Errorf("group %q names no topic: its members subscribe to nothing and it has committed no offsets", g.Group)
}

// strategy is kviz's assignor and protocol for the group's.
func (g *Group) strategy() (string, string, []string, error) {
	if g.Type == Consumer {
		name := g.Protocol
		var note []string
		if name == "" {
			name = "uniform"
			note = append(note, "the server assignor is unknown; uniform assumed (the first of group.consumer.assignors)")
		}
		for _, n := range strategies.Names() {
			a, _ := strategies.Lookup(n)
			if a.KafkaName() == name && strategies.Supports(a, strategies.Consumer) {
				return a.Name(), string(strategies.Consumer), note, nil
			}
		}
		return "", "", nil, fmt.Errorf("group %q uses the server assignor %q, which kviz does not model", g.Group, name)
	}
	name := g.Protocol
	var note []string
	switch {
	case name == "" && g.prev != nil && g.prev.Protocol != "":
		name = g.prev.Protocol
		note = append(note, fmt.Sprintf("the assignor: DescribeGroups names none while the group is %s; the last settled read's %s is taken", g.State, name))
	case name == "" && g.caughtPhase() != "":
		name = "range"
		note = append(note, "the assignor: DescribeGroups names none while the group rebalances; range assumed (the first of Kafka's default partition.assignment.strategy)")
	case name == "":
		name = "range"
		note = append(note, "the assignor is unknown; range assumed (the first of Kafka's default partition.assignment.strategy)")
	}
	a, err := strategies.Lookup(name)
	if err != nil {
		return "", "", nil, fmt.Errorf("group %q uses the assignor %q, which kviz does not model", g.Group, name)
	}
	if !strategies.Supports(a, strategies.Eager) && !strategies.Supports(a, strategies.Cooperative) {
		return "", "", nil, fmt.Errorf("group %q: %s is a server-side assignor, but the group is classic", g.Group, name)
	}
	return a.Name(), string(strategies.Preferred(a)), note, nil
}

// memberSpecs are the members as the scenario has them. What the model
// cannot hold is left out and said: a subscription to a topic the cluster
// does not have (Kafka's assignors assign nothing of it), partitions of a
// topic that is gone or that the member no longer subscribes to.
func (g *Group) memberSpecs(exist map[string]int32) ([]scenario.MemberSpec, []string) {
	var notes []string
	out := make([]scenario.MemberSpec, 0, len(g.Members))
	var subs scenario.Subscribers
	var last subscription
	names := memberNames(g.Members)
	for i, m := range g.Members {
		id := names[i]
		spec := scenario.MemberSpec{ID: id, MemberID: m.MemberID}
		if m.InstanceID != nil {
			spec.Instance = *m.InstanceID
		}
		if g.caughtPhase() != "" && len(m.Topics) == 0 {
			var cnotes []string
			m, cnotes = g.caughtMember(m, id, &spec)
			notes = append(notes, cnotes...)
		}
		topics := m.Topics
		if len(topics) == 0 && len(m.Assignment) == 0 && g.State != "Stable" && g.State != "STABLE" {
			// a classic member's subscription is in its JoinGroup, which a
			// rebalancing group may not show yet
			topics = strategies.SortedTopics(exist)
			notes = append(notes, fmt.Sprintf("%s's subscription is unknown while the group is %s: taken as all the group's topics", id, g.State))
		}
		last = last.next(topics, exist)
		spec.Topics = last.topics
		for _, t := range last.missing {
			// Kept: Kafka's assignors give a missing topic's
			// subscribers nothing of it, and the model does the same.
			notes = append(notes, fmt.Sprintf("%s subscribes to %s, which does not exist (kept: nothing of it is assigned)", id, t))
		}
		subscribes := subs.Of(spec.Topics)
		if m.Regex != nil {
			notes = append(notes, fmt.Sprintf("%s subscribes to the pattern %s: its matching topics are taken as its subscription", id, *m.Regex))
		}
		if n := count(m.Assignment); n > 0 {
			spec.Owned = make([]kafka.TP, 0, n)
		}
		for _, t := range strategies.SortedTopics(m.Assignment) {
			_, exists := exist[t]
			switch {
			case !exists && g.Type == Classic && subscribes(t):
				// Kept: the member reports them until its next rebalance,
				// the assignors ignore them (the sticky family keeps only
				// owned partitions of topics in its metadata), the member
				// revokes them, and the leader's metadata refresh sees the
				// deletion and rebalances (model/given.go).
				for _, p := range m.Assignment[t] {
					spec.Owned = append(spec.Owned, kafka.TP{Topic: t, Partition: p})
				}
				notes = append(notes, fmt.Sprintf("%s owns partitions of %s, which no longer exists (kept: the assignors ignore them, %s revokes them at the next rebalance, which the leader starts when its metadata shows the deletion)", id, t, id))
			case !exists:
				notes = append(notes, fmt.Sprintf("%s owns partitions of %s, which no longer exists and it no longer subscribes to (left out: the consumer revokes them before it next joins)", id, t))
			case !subscribes(t):
				notes = append(notes, fmt.Sprintf("%s owns partitions of %s but no longer subscribes to it (left out)", id, t))
			default:
				for _, p := range m.Assignment[t] {
					spec.Owned = append(spec.Owned, kafka.TP{Topic: t, Partition: p})
				}
			}
		}
		if m.PartitionCount != nil && *m.PartitionCount > count(m.Assignment) {
			notes = append(notes, fmt.Sprintf("%s holds %d partitions but the output does not say which: imported as owning %s (moves and sticky assignors' answers start from that)", id, *m.PartitionCount, ownedWords(count(m.Assignment))))
		}
		if m.Rack != nil && *m.Rack != "" {
			spec.Rack = *m.Rack
		}
		if g.Type == Consumer && m.MemberType != nil && *m.MemberType == MemberClassic {
			// KIP-848's online migration: the given start holds it as a
			// classic member of the consumer group (scenario/given_mixed.go).
			spec.Settings.Protocol = scenario.ProtocolClassic
			notes = append(notes, fmt.Sprintf("%s runs the classic protocol in a consumer group (KIP-848's online migration; Kafka's describe prints UPGRADED false): imported with protocol: classic; its partition.assignment.strategy, session.timeout.ms and heartbeat.interval.ms are its client's, which ConsumerGroupDescribe does not show: Kafka's defaults assumed (%s; 45000 ms; 3000 ms)", id, strings.Join(scenario.DefaultClassicAssignors, ", ")))
		}
		if len(spec.Topics) == 0 {
			notes = append(notes, fmt.Sprintf("%s (member id %s) subscribes to nothing: left out", id, m.MemberID))
			continue
		}
		out = append(out, spec)
	}
	if len(out) == 0 {
		return nil, notes // as before it was made at its size: no members, none
	}
	return out, notes
}

// memberNames are the members' scenario ids: the client id where it is
// unique in the group, else the client id and a short member-id suffix
// (sharedClientID), else (no client id) the member id. The import, whatif,
// compare and simulate name members so; live's JSON says it as "id".
func memberNames(ms []Member) []string {
	clients := map[string]int{}
	for _, m := range ms {
		clients[m.ClientID]++
	}
	ids := map[string]bool{}
	out := make([]string, len(ms))
	var shared []int
	for i, m := range ms {
		id := m.ClientID
		switch {
		case id == "":
			id = m.MemberID
		case clients[id] > 1 || ids[id]:
			if shared == nil {
				shared = sharedPrefixes(ms)
			}
			id = sharedClientID(m, shared[i], ids)
		}
		ids[id] = true
		out[i] = id
	}
	return out
}

// Named fills what names the group as kviz's other commands do: each
// member's scenario id (Member.ID) and the strategy (kviz's name for the
// assignor, Group.Strategy; null when the group does not say). It returns
// g.
func (g *Group) Named() *Group {
	for i, id := range memberNames(g.Members) {
		g.Members[i].ID = id
	}
	g.Strategy = nil
	if name := kvizStrategy(g); name != "" {
		g.Strategy = ptr(name)
	}
	return g
}

// kvizStrategy is kviz's name for the group's assignor, "" when unknown or
// not modelled.
func kvizStrategy(g *Group) string {
	if g.Protocol == "" {
		return ""
	}
	want := strategies.Consumer
	switch g.Type {
	case Share:
		want = strategies.Share
	case Classic:
		a, err := strategies.LookupAny(g.Protocol)
		if err != nil || strategies.Supports(a, strategies.Share) {
			return ""
		}
		return a.Name()
	}
	for _, n := range strategies.AllNames() {
		a, _ := strategies.LookupAny(n)
		if a.KafkaName() == g.Protocol && strategies.Supports(a, want) {
			return a.Name()
		}
	}
	return ""
}

// sharedClientID names a member whose client.id others share: the client
// id and the shortest part of its member id (past the client id Kafka's
// coordinator puts in front) that tells it from the others, as in
// "app~4f2a".
func sharedClientID(m Member, shared int, taken map[string]bool) string {
	mine := memberTail(m)
	for n := max(min(4, len(mine)), shared+1); n <= len(mine); n++ {
		if id := m.ClientID + "~" + mine[:n]; !taken[id] {
			return id
		}
	}
	return m.MemberID
}

// memberTail is a member id past the client id (and dash) in front.
func memberTail(m Member) string { return strings.TrimPrefix(m.MemberID, m.ClientID+"-") }

// sharedPrefixes gives, for each member, the longest start its memberTail
// shares with that of another member (another member id) of its client id,
// -1 if there is none: a suffix of that length or shorter would clash. Sorting each client's
// tails puts the longest shared start next door, so this is n log n where
// comparing every pair of a client's members was quadratic (10,000 members
// of one client id: issue 21).
func sharedPrefixes(ms []Member) []int {
	idx := make([]int, len(ms))
	tails := make([]string, len(ms))
	for i, m := range ms {
		idx[i], tails[i] = i, memberTail(m)
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(ms[a].ClientID, ms[b].ClientID), cmp.Compare(tails[a], tails[b]), cmp.Compare(ms[a].MemberID, ms[b].MemberID))
	})
	out := make([]int, len(ms))
	for k, i := range idx {
		out[i] = -1 // no other member id: not even the empty start clashes
		// The nearest neighbour of the same client id and another member
		// id on each side (one member id has one tail, so equal ids sit
		// together and are stepped over).
		for _, step := range []int{-1, 1} {
			for j := k + step; j >= 0 && j < len(idx); j += step {
				o := idx[j]
				if ms[o].ClientID != ms[i].ClientID {
					break
				}
				if ms[o].MemberID == ms[i].MemberID {
					continue
				}
				out[i] = max(out[i], commonPrefix(tails[i], tails[o]))
				break
			}
		}
	}
	return out
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func ownedWords(n int) string {
	if n == 0 {
		return "nothing"
	}
	return fmt.Sprintf("the %d the output names", n)
}

// startEpoch is the generation (KIP-848: group epoch) the scenario starts
// at.
func (g *Group) startEpoch(notes []string) (int32, []string) {
	if g.Type == Consumer {
		if g.GroupEpoch != nil && *g.GroupEpoch > 0 {
			return *g.GroupEpoch, notes
		}
		return 1, append(notes, "the group epoch is unknown; 1 assumed")
	}
	if g.Generation != nil && *g.Generation > 0 {
		return *g.Generation, notes
	}
	return 1, append(notes, "the generation is unknown; 1 assumed")
}

// brokerRacks is the scenario's cluster.racks: every broker's rack in
// broker id order (the scenario numbers brokers 0..n-1 in that order), or
// none when some broker has no rack (Kafka's rack-aware placement needs
// all or none, and so does the scenario).
func (g *Group) brokerRacks() ([]string, []string) {
	if len(g.BrokerRacks) == 0 || len(g.BrokerRacks) != g.Brokers {
		return nil, nil
	}
	var racks []string
	for _, b := range g.BrokerRacks {
		if b.Rack == nil || *b.Rack == "" {
			return nil, []string{fmt.Sprintf("broker %d has no rack while others do: the scenario gives racks to all brokers or none, so none are given (rack-aware assignment is not simulated)", b.ID)}
		}
		racks = append(racks, *b.Rack)
	}
	return racks, nil
}

// replicaLists is the scenario's replica assignment of the group's topics:
// the real one, brokers numbered by their order of id as in cluster.racks.
// A replica on a broker Metadata does not list (down) is left out; a topic
// with a partition left without replicas is placed by kviz, and said.
func (g *Group) replicaLists(sc *scenario.Scenario) (map[string][][]int, []string) {
	index := map[int32]int{}
	for i, b := range g.BrokerRacks {
		index[b.ID] = i
	}
	var notes []string
	out := map[string][][]int{}
	for _, t := range strategies.SortedTopics(sc.Topics) {
		reps := g.Replicas[t]
		if len(reps) != int(sc.Topics[t]) {
			notes = append(notes, fmt.Sprintf("%s's replica assignment is unknown: kviz places its replicas (rack-aware predictions may differ)", t))
			continue
		}
		lists := make([][]int, len(reps))
		for p, rs := range reps {
			for _, b := range rs {
				if i, ok := index[b]; ok {
					lists[p] = append(lists[p], i)
				}
			}
		}
		if slices.ContainsFunc(lists, func(l []int) bool { return len(l) == 0 }) {
			notes = append(notes, fmt.Sprintf("%s has a partition whose replicas are all on brokers that are down: kviz places its replicas (rack-aware predictions may differ)", t))
			continue
		}
		out[t] = lists
	}
	return out, notes
}
