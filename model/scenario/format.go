package scenario

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/strategies"
)

// Format writes sc in the scenario file format, so that
// Parse of the result gives sc back (its File aside). Defaults the
// parser fills in (timeouts, a member's topics) are left out; every value
// the parser could not read back (a producer option the format has no key
// for, owned partitions without a given start) is an error.
func Format(sc *Scenario) ([]byte, error) {
	if sc == nil {
		return nil, fmt.Errorf("format: no scenario")
	}
	f := formatter{sc: sc}
	root, err := f.root()
	if err != nil {
		return nil, err
	}
	return encodeFlows(root)
}

// encode writes the document root as yaml.v3 does.
func encode(root *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, fmt.Errorf("format: %v", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("format: %v", err)
	}
	return buf.Bytes(), nil
}

type formatter struct {
	sc  *Scenario
	all []string // every topic, sorted (allTopics)
	// settingsAt: where each member's own consumer settings are written,
	// the member entry (-1) or the index of its first join.
	settingsAt map[string]int
}

// allTopics is every topic of the scenario in name order, sorted once: a
// member that subscribes to all of them writes no topics.
func (f *formatter) allTopics() []string {
	if f.all == nil {
		f.all = strategies.SortedTopics(f.sc.Topics)
	}
	return f.all
}

// Scalars: strings carry their tag so the encoder quotes any that would
// read back as something else ("yes", "1", "a: b"); numbers go plain.
func fStr(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Bool(strings.ToLower(s)) {
		n.Style = yaml.DoubleQuotedStyle // YAML 1.1 readers would take it for a boolean
	}
	return n
}

// yaml11Bool reports whether a YAML 1.1 reader takes s for a boolean.
func yaml11Bool(s string) bool {
	switch s {
	case "y", "n", "yes", "no", "on", "off":
		return true
	}
	return false
}

func fInt(v int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatInt(v, 10)}
}
func fFloat(v float64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatFloat(v, 'g', -1, 64)}
}
func fBool(v bool) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatBool(v)} }
func fNull() *yaml.Node       { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"} }

// fMap is a mapping of key, value pairs; flow style writes it on one line.
func fMap(flow bool, kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	if flow {
		n.Style = yaml.FlowStyle
	}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, fStr(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

// put appends key: v to mapping n.
func put(n *yaml.Node, key string, v *yaml.Node) {
	n.Content = append(n.Content, fStr(key), v)
}

func fStrs(ss []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range ss {
		n.Content = append(n.Content, fStr(s))
	}
	return n
}

func fInts[T int | int32](vs []T) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, v := range vs {
		n.Content = append(n.Content, fInt(int64(v)))
	}
	return n
}

func (f *formatter) root() (*yaml.Node, error) {
	sc := f.sc
	root := fMap(false)
	for _, kv := range []struct{ key, v string }{{"name", sc.Name}, {"title", sc.Title}, {"notes", sc.Notes}} {
		if kv.v != "" {
			put(root, kv.key, fStr(kv.v))
		}
	}
	if sc.Seed != 0 {
		put(root, "seed", fInt(sc.Seed))
	}
	if len(sc.Examples) > 0 {
		put(root, "examples", fInts(sc.Examples))
	}
	if sc.Open != "" && sc.Pane != "" {
		put(root, "lab", fMap(true, "open", fStr(string(sc.Open)), "pane", fStr(string(sc.Pane))))
	} else if sc.Open != "" {
		put(root, "lab", fMap(true, "open", fStr(string(sc.Open))))
	} else if sc.Pane != "" {
		put(root, "lab", fMap(true, "pane", fStr(string(sc.Pane))))
	}
	cluster := fMap(true, "brokers", fInt(int64(sc.Brokers)), "offsets_partitions", fInt(int64(sc.OffsetsPartitions)))
	if len(sc.BrokerRacks) > 0 {
		put(cluster, "racks", fStrs(sc.BrokerRacks))
	}
	put(root, "cluster", cluster)
	topics := fMap(true)
	for _, t := range strategies.SortedTopics(sc.Topics) {
		if reps := sc.Replicas[t]; reps != nil {
			lists := &yaml.Node{Kind: yaml.SequenceNode}
			for _, r := range reps {
				lists.Content = append(lists.Content, fInts(r))
			}
			put(topics, t, fMap(false, "partitions", fInt(int64(sc.Topics[t])), "replicas", lists))
			continue
		}
		put(topics, t, fInt(int64(sc.Topics[t])))
	}
	put(root, "topics", topics)
	if err := f.placeSettings(); err != nil {
		return nil, err
	}
	group, err := f.group()
	if err != nil {
		return nil, err
	}
	put(root, "group", group)
	if len(sc.Members) > 0 {
		members := &yaml.Node{Kind: yaml.SequenceNode}
		for _, m := range sc.Members {
			n, err := f.member(m)
			if err != nil {
				return nil, err
			}
			members.Content = append(members.Content, n)
		}
		put(root, "members", members)
	}
	if n := formatSharePartitions(sc); n != nil {
		put(root, "share_partitions", n) // given_share.go
	}
	if sc.Flow != nil && len(sc.Flow.Producers) > 0 {
		producers := &yaml.Node{Kind: yaml.SequenceNode}
		for i, p := range sc.Flow.Producers {
			n, err := producerNode(p, i)
			if err != nil {
				return nil, err
			}
			producers.Content = append(producers.Content, n)
		}
		put(root, "producers", producers)
	}
	if sc.Flow != nil && len(sc.Flow.Readers) > 0 {
		readers := &yaml.Node{Kind: yaml.SequenceNode}
		for _, r := range sc.Flow.Readers {
			n := fMap(true, "group", fStr(r.Group))
			if !slices.Equal(r.Topics, f.allTopics()) {
				put(n, "topics", fStrs(r.Topics))
			}
			if r.AtMs != 0 {
				put(n, "at_ms", fInt(r.AtMs))
			}
			if err := consumerFields(n, r.Consumer, false); err != nil {
				return nil, err
			}
			readers.Content = append(readers.Content, n)
		}
		put(root, "readers", readers)
	}
	timeline, err := f.timeline()
	if err != nil {
		return nil, err
	}
	if len(timeline.Content) > 0 {
		put(root, "timeline", timeline)
	}
	return root, nil
}

// placeSettings decides where each member's own consumer settings go: its
// member entry, or its first join.
func (f *formatter) placeSettings() error {
	if f.sc.Flow == nil {
		return nil
	}
	f.settingsAt = map[string]int{}
	for _, id := range slices.Sorted(maps.Keys(f.sc.Flow.Members)) {
		at, found := -1, slices.ContainsFunc(f.sc.Members, func(m MemberSpec) bool { return m.ID == id })
		for i, ev := range f.sc.Timeline {
			if !found && ev.Kind == "join" && ev.Member == id {
				at, found = i, true
			}
		}
		if !found {
			return fmt.Errorf("format: member %s has consumer settings but is neither a member nor joins", id)
		}
		f.settingsAt[id] = at
	}
	return nil
}

func (f *formatter) group() (*yaml.Node, error) {
	sc := f.sc
	if sc.Share != nil {
		return formatShareGroup(sc), nil // share.go
	}
	g := fMap(false, "id", fStr(sc.GroupID), "strategy", fStr(sc.Strategy), "protocol", fStr(sc.Protocol))
	if v := sc.KafkaVersionLabel(); v != "" {
		put(g, "kafka_version", fStr(v))
	}
	def := &Scenario{Protocol: sc.Protocol}
	applyTimeoutDefaults(def, nil)
	for _, t := range []struct {
		key       string
		got, want int64
	}{
		{"session_timeout_ms", sc.SessionTimeoutMs, def.SessionTimeoutMs},
		{"heartbeat_interval_ms", sc.HeartbeatIntervalMs, def.HeartbeatIntervalMs},
		{"max_poll_interval_ms", sc.MaxPollIntervalMs, def.MaxPollIntervalMs},
		{"initial_rebalance_delay_ms", sc.InitialRebalanceDelayMs, def.InitialRebalanceDelayMs},
	} {
		// A setting the file gave stays written even at its default:
		// a variation to another protocol re-derives only the others.
		if _, given := sc.groupSet[t.key]; given || t.got != t.want {
			put(g, t.key, fInt(t.got))
		}
	}
	if sc.MaxSize > 0 {
		put(g, "max_size", fInt(int64(sc.MaxSize)))
	}
	if sc.SessionCheck != "" {
		put(g, "session_timeout_check", fStr(sc.SessionCheck))
	}
	if sc.Migration != "" {
		put(g, "migration_policy", fStr(sc.Migration))
	}
	if v, given := sc.groupSet[assignmentIntervalKey]; given && IsConsumer(sc) {
		put(g, assignmentIntervalKey, fInt(v))
	}
	if sc.GivenStart() {
		key := "generation"
		if IsConsumer(sc) {
			key = "group_epoch"
		}
		put(g, key, fInt(int64(sc.Generation)))
		if a := sc.AssignmentEpoch; a > 0 && a != sc.Generation {
			put(g, "assignment_epoch", fInt(int64(a)))
		}
	}
	if err := formatLive(g, sc); err != nil {
		return nil, err
	}
	if sc.Flow != nil {
		if err := consumerFields(g, sc.Flow.Consumer, false); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// consumerFields writes a consumer configuration's keys. A member's always
// names its commit mode, so its entry carries settings of its own even
// when they equal the group's.
func consumerFields(n *yaml.Node, c produce.ConsumerConfig, member bool) error {
	if c.AsyncCommitMs != 0 {
		return fmt.Errorf("format: the scenario format has no key for an async commit's round trip (%d ms)", c.AsyncCommitMs)
	}
	if c.Rate != 0 {
		put(n, "rate", fFloat(c.Rate))
	}
	switch {
	case c.Commit != "" && c.Commit != produce.CommitAuto:
		put(n, "commit", fStr(string(c.Commit)))
	case member:
		put(n, "enable_auto_commit", fBool(true))
	}
	if c.AutoCommitIntervalMs != 0 {
		put(n, "auto_commit_interval_ms", fInt(int64(c.AutoCommitIntervalMs)))
	}
	if c.OffsetReset != "" {
		put(n, "auto_offset_reset", fStr(string(c.OffsetReset)))
	}
	return nil
}

// memberSettings writes a member's own consumer settings if they go at where.
func (f *formatter) memberSettings(n *yaml.Node, id string, where int) error {
	if at, ok := f.settingsAt[id]; ok && at == where {
		return consumerFields(n, f.sc.Flow.Members[id], true)
	}
	return nil
}

// memberBody writes what a member and a join share: id, instance, topics
// (when not every topic, the parser's default) and assignors.
func (f *formatter) memberBody(id, instance, rack string, topics, strats []string, settings MemberSettings) *yaml.Node {
	n := fMap(true, "id", fStr(id))
	if instance != "" {
		put(n, "instance", fStr(instance))
	}
	if rack != "" {
		put(n, "rack", fStr(rack))
	}
	if settings.Pattern == "" && !slices.Equal(topics, f.allTopics()) {
		put(n, "topics", fStrs(topics))
	}
	if strats != nil {
		put(n, "strategies", fStrs(strats))
	}
	settingsFields(n, settings)
	return n
}

func (f *formatter) member(m MemberSpec) (*yaml.Node, error) {
	n := f.memberBody(m.ID, m.Instance, m.Rack, m.Topics, m.Strategies, m.Settings)
	if (m.MemberID != "" || len(m.Owned) > 0 || m.Target != nil || len(m.Revoking) > 0 || m.MemberEpoch > 0) && !f.sc.GivenStart() {
		return nil, fmt.Errorf("format: member %s owns partitions or holds a member id, but the scenario has no given start (Generation 0)", m.ID)
	}
	if m.MemberID != "" {
		put(n, "member_id", fStr(m.MemberID))
	}
	if len(m.Owned) > 0 {
		put(n, "owned", ownedNode(m.Owned))
	}
	if e := m.MemberEpoch; e > 0 && e != f.sc.StartAssignmentEpoch() {
		put(n, "member_epoch", fInt(int64(e)))
	}
	if m.Target != nil {
		put(n, "target", ownedNode(m.Target))
	}
	if len(m.Revoking) > 0 {
		put(n, "revoking", ownedNode(m.Revoking))
	}
	formatLiveMember(n, m.Client, m.Rejoined)
	return n, f.memberSettings(n, m.ID, -1)
}

// ownedNode writes partitions as {topic: [p, ...]}, topics in the list's order.
func ownedNode(tps []kafka.TP) *yaml.Node {
	n := fMap(true)
	for i := 0; i < len(tps); {
		j := i
		var ps []int32
		for ; j < len(tps) && tps[j].Topic == tps[i].Topic; j++ {
			ps = append(ps, tps[j].Partition)
		}
		put(n, tps[i].Topic, fInts(ps))
		i = j
	}
	return n
}

func (f *formatter) timeline() (*yaml.Node, error) {
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for i, ev := range f.sc.Timeline {
		v, err := f.action(ev, i)
		if err != nil {
			return nil, err
		}
		seq.Content = append(seq.Content, fMap(true, "at_ms", fInt(ev.AtMs), ev.Kind, v))
	}
	if f.sc.Flow != nil {
		for _, pe := range f.sc.Flow.Produces {
			v := fMap(true, "topic", fStr(pe.Topic))
			if pe.Key != nil {
				put(v, "key", fStr(string(pe.Key)))
			}
			if pe.Count != 1 {
				put(v, "count", fInt(int64(pe.Count)))
			}
			seq.Content = append(seq.Content, fMap(true, "at_ms", fInt(pe.AtMs), "produce", v))
		}
	}
	return seq, nil
}

// action writes one timeline event's value.
func (f *formatter) action(ev Event, i int) (*yaml.Node, error) {
	if ev.Share != nil {
		return formatShareAction(ev), nil // share.go
	}
	switch ev.Kind {
	case "join":
		n := f.memberBody(ev.Member, ev.Instance, ev.Rack, ev.Topics, ev.Strategies, ev.Settings)
		formatLiveMember(n, ev.Client, false)
		return n, f.memberSettings(n, ev.Member, i)
	case "restart":
		if ev.Settings.Protocol != "" {
			return fMap(true, "id", fStr(ev.Member), "protocol", fStr(ev.Settings.Protocol)), nil
		}
		return fStr(ev.Member), nil
	case "leave", "crash", "wakeup":
		return fStr(ev.Member), nil
	case "disconnect":
		return fMap(true, "id", fStr(ev.Member), "ms", fInt(ev.Ms)), nil
	case "remove_members":
		if ev.All {
			return fStr("all"), nil
		}
		return fMap(true, "instances", fStrs(ev.Instances)), nil
	case "commit":
		if ev.Generation == nil {
			return fStr(ev.Member), nil
		}
		return fMap(true, "id", fStr(ev.Member), "generation", fInt(int64(*ev.Generation))), nil
	case "stall":
		return fMap(true, "id", fStr(ev.Member), "ms", fInt(ev.Ms)), nil
	case "subscribe":
		if ev.Settings.Pattern != "" {
			return fMap(true, "id", fStr(ev.Member), "pattern", fStr(ev.Settings.Pattern)), nil
		}
		return fMap(true, "id", fStr(ev.Member), "topics", fStrs(ev.Topics)), nil
	case "create_topic":
		return fMap(true, "topic", fStr(ev.Topic), "partitions", fInt(int64(ev.Count))), nil
	case "delete_topic":
		return fStr(ev.Topic), nil
	case "add_partitions":
		return fMap(true, "topic", fStr(ev.Topic), "count", fInt(int64(ev.Count))), nil
	case "fail_broker", "recover_broker":
		return fInt(int64(ev.Broker)), nil
	}
	return nil, fmt.Errorf("format: unknown timeline event %q at %d ms", ev.Kind, ev.AtMs)
}

func producerNode(p produce.ProducerConfig, i int) (*yaml.Node, error) {
	if p.IgnoreKeys || p.DisableAdaptive || p.AvailabilityTimeoutMs != 0 {
		return nil, fmt.Errorf("format: producers[%d] sets an option the scenario format has no key for (ignore keys, adaptive partitioning, availability timeout)", i)
	}
	n := fMap(true)
	if p.Name != "" {
		put(n, "name", fStr(p.Name))
	}
	put(n, "topic", fStr(p.Topic))
	if p.Rate != 0 {
		put(n, "rate", fFloat(p.Rate))
	}
	if p.Keys.Kind != "" {
		k, err := keysNode(p.Keys, i)
		if err != nil {
			return nil, err
		}
		put(n, "keys", k)
	}
	for _, kv := range []struct{ key, v string }{{"partitioner", p.Partitioner}, {"kafka_version", p.Version}} {
		if kv.v != "" {
			put(n, kv.key, fStr(kv.v))
		}
	}
	if p.BatchSize != 0 {
		put(n, "batch_size", fInt(int64(p.BatchSize)))
	}
	if p.LingerMs != nil {
		put(n, "linger_ms", fInt(int64(*p.LingerMs)))
	}
	if p.ValueBytes != 0 {
		put(n, "value_bytes", fInt(int64(p.ValueBytes)))
	}
	return n, nil
}

func keysNode(k produce.Keys, i int) (*yaml.Node, error) {
	switch k.Kind {
	case produce.KeysNull:
		return fNull(), nil
	case produce.KeysFixed:
		return fStrs(k.Fixed), nil
	case produce.KeysUniform:
		return fMap(true, "uniform", fInt(int64(k.Count))), nil
	case produce.KeysHot:
		n := fMap(true, "hot", fStr(k.Hot), "share", fFloat(k.HotShare))
		if k.Count != 0 {
			put(n, "count", fInt(int64(k.Count)))
		}
		return n, nil
	}
	return nil, fmt.Errorf("format: producers[%d]: unknown key distribution %q", i, k.Kind)
}
