package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/strategies"
)

// withoutLines is sc with what the parser adds from the file (its name,
// the lines of events) cleared, so two parses of one scenario compare.
func withoutLines(sc *Scenario) *Scenario {
	out := *sc
	out.File = ""
	// Which settings were written out and under which epoch key is checked
	// apart (roundTrip): the values are what must read back equal.
	out.groupSet, out.givenEpochKey = nil, ""
	out.Timeline = slices.Clone(sc.Timeline)
	for i := range out.Timeline {
		out.Timeline[i].line = 0
	}
	if sc.Flow != nil {
		f := *sc.Flow
		f.Produces = slices.Clone(sc.Flow.Produces)
		for i := range f.Produces {
			f.Produces[i].line = 0
		}
		out.Flow = &f
	}
	return &out
}

// fataler is what roundTrip needs of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// emitterOnly is Format with every node written by yaml.v3 (format_flow.go).
func emitterOnly(t fataler, sc *Scenario) []byte {
	f := formatter{sc: sc}
	root, err := f.root()
	if err != nil {
		t.Fatalf("format: %v", err)
	}
	out, err := encode(root)
	if err != nil {
		t.Fatalf("format: %v", err)
	}
	return out
}

func roundTrip(t fataler, sc *Scenario) {
	t.Helper()
	data, err := Format(sc)
	if err != nil {
		t.Fatalf("format: %v", err)
	}
	if slow := emitterOnly(t, sc); string(slow) != string(data) {
		t.Fatalf("the flows written directly differ from yaml.v3's:\n%s\nyaml.v3:\n%s", data, slow)
	}
	back, err := Parse("formatted.yaml", data)
	if err != nil {
		t.Fatalf("parse of the formatted scenario: %v\n%s", err, data)
	}
	for key := range sc.groupSet {
		if _, ok := back.groupSet[key]; !ok {
			t.Fatalf("group.%s was given but is not written:\n%s", key, data)
		}
	}
	if want, got := withoutLines(sc), withoutLines(back); !reflect.DeepEqual(want, got) {
		t.Fatalf("round trip differs:\nwant %+v\n got %+v\nyaml:\n%s", want, got, data)
	}
}

// Every shipped demo reads back as itself.
func TestFormatDemosRoundTrip(t *testing.T) {
	for _, d := range shippedDemos(t) {
		name, data := d.name, d.data
		sc, err := Parse(name+".yaml", data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Run(name, func(t *testing.T) { roundTrip(t, sc) })
	}
}

// Strings YAML cares about are quoted, and read back.
func TestFormatQuotesWhatYAMLCaresAbout(t *testing.T) {
	sc, err := Parse("q.yaml", []byte("topics: {t0: 3}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, owned: {t0: [0]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"yes", "No", "on", "1", "1.5", "null", "~", "true", "a: b", "#x", "- y", "[z]", "{w}", "'q'", `"d"`, " lead", "trail ", "*star", "&amp", "!bang", "%pct", "@at", "`tick", "|", ">", "multi\nline", "c1-8e3f2a10"} {
		sc.Members[0].ID, sc.Members[0].MemberID = id, id+"-m"
		sc.GroupID = id
		sc.Title = id
		roundTrip(t, sc)
		data, _ := Format(sc)
		if strings.Contains(id, ":") && !strings.Contains(string(data), "'"+id+"'") && !strings.Contains(string(data), `"`+id+`"`) {
			t.Errorf("%q is not quoted:\n%s", id, data)
		}
	}
}

// Format refuses what the parser could not read back.
func TestFormatRefusesTheUnwritable(t *testing.T) {
	sc, err := Parse("q.yaml", []byte("topics: {t0: 3}\nmembers:\n  - {id: c1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sc.Members[0].Owned = []kafka.TP{{Topic: "t0", Partition: 0}}
	if _, err := Format(sc); err == nil || !strings.Contains(err.Error(), "no given start") {
		t.Errorf("owned partitions without a generation: %v", err)
	}
	sc.Members[0].Owned = nil
	sc.Timeline = []Event{{AtMs: 1, Kind: "dance", Member: "c1"}}
	if _, err := Format(sc); err == nil || !strings.Contains(err.Error(), `"dance"`) {
		t.Errorf("an unknown event: %v", err)
	}
	if _, err := Format(nil); err == nil {
		t.Error("a nil scenario formats")
	}
}

// The property: any scenario the parser can produce reads back equal.
func TestFormatRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { roundTrip(t, genCanonical(t)) })
}

// text draws strings with the characters YAML gives meaning to.
func text(t *rapid.T, label string, minLen int) string {
	alphabet := []rune("abcC0123 :#-'\"\n{}[],&*!|>%@`?.~_\\/yesnotrul")
	return rapid.StringOfN(rapid.RuneFrom(alphabet), minLen, 12, -1).Draw(t, label)
}

// groupIDText is text a group.id may be: not empty once trimmed
// (strategies.CheckGroupID; Kafka refuses an empty group.id).
func groupIDText(t *rapid.T) string {
	id := text(t, "group", 0)
	if strategies.CheckGroupID(id) != nil {
		return "g" + id
	}
	return id
}

func distinct(t *rapid.T, label string, n, minLen int) []string {
	return rapid.SliceOfNDistinct(rapid.Custom(func(t *rapid.T) string { return text(t, "s", minLen) }), n, n, func(s string) string { return s }).Draw(t, label)
}

// subset draws a non-empty subset of xs, in a drawn order.
func subset(t *rapid.T, label string, xs []string) []string {
	out := rapid.SliceOfNDistinct(rapid.SampledFrom(xs), 1, len(xs), func(s string) string { return s }).Draw(t, label)
	return out
}

// pickTopics draws a subscription: every topic (the parser's default) or a
// subset.
func pickTopics(t *rapid.T, label string, topics []string) []string {
	if rapid.Bool().Draw(t, label+" all") {
		return topics
	}
	return subset(t, label, topics)
}

// genCanonical draws a scenario as Parse would build it: defaults
// filled, lists deduplicated, consumer settings merged.
func genCanonical(t *rapid.T) *Scenario {
	var setups [][2]string
	for _, s := range [][2]string{{"range", "eager"}, {"roundrobin", "eager"}, {"sticky", "eager"},
		{"cooperative-sticky", "cooperative"}, {"uniform", "consumer"}, {"range-server", "consumer"}} {
		if _, err := strategies.Lookup(s[0]); err == nil {
			setups = append(setups, s)
		}
	}
	setup := rapid.SampledFrom(setups).Draw(t, "setup")
	sc := &Scenario{Name: text(t, "name", 0), Title: text(t, "title", 0), Notes: text(t, "notes", 0),
		Seed: rapid.Int64().Draw(t, "seed"), Brokers: rapid.IntRange(1, 5).Draw(t, "brokers"),
		OffsetsPartitions: rapid.Int32Range(1, 100).Draw(t, "offsets"), GroupID: groupIDText(t),
		Strategy: setup[0], Protocol: setup[1], Topics: map[string]int32{}}
	if ex := rapid.SliceOfNDistinct(rapid.IntRange(1, maxExample), 0, 3, func(i int) int { return i }).Draw(t, "examples"); len(ex) > 0 {
		sc.Examples = ex
	}
	if rapid.Bool().Draw(t, "open") {
		sc.Open = OpenCompare
	}
	for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"t0", "t1", "1", "true", "null", "a.b", "x_y-z", "Yes"}), 1, 3, func(s string) string { return s }).Draw(t, "topics") {
		sc.Topics[name] = rapid.Int32Range(1, 6).Draw(t, "count "+name)
	}
	topics := strategies.SortedTopics(sc.Topics)
	applyTimeoutDefaults(sc, nil)
	if rapid.Bool().Draw(t, "timeouts") {
		sc.SessionTimeoutMs = rapid.Int64Range(minSessionMs, 100000).Draw(t, "session")
		sc.HeartbeatIntervalMs = rapid.Int64Range(1, sc.SessionTimeoutMs-1).Draw(t, "heartbeat")
		sc.MaxPollIntervalMs = rapid.Int64Range(1, 1000000).Draw(t, "max poll")
		sc.InitialRebalanceDelayMs = rapid.Int64Range(0, 10000).Draw(t, "delay")
	}
	if rapid.Bool().Draw(t, "max size") {
		sc.MaxSize = rapid.Int32Range(1, 1000).Draw(t, "max")
	}
	if rapid.Bool().Draw(t, "session check") {
		sc.SessionCheck = SessionCheckCoordinator
	}
	if rapid.Bool().Draw(t, "migration") {
		sc.Migration = rapid.SampledFrom(migrationPolicies).Draw(t, "policy")
	}
	given := rapid.Bool().Draw(t, "given")
	if given {
		sc.Generation = rapid.Int32Range(1, maxStartEpoch).Draw(t, "generation")
	}
	classicAssignors := []string{sc.Strategy}
	if IsConsumer(sc) {
		classicAssignors = nil // a classic member of a consumer group brings its own
	}
	for _, n := range []string{"range", "roundrobin", "sticky", "cooperative-sticky"} {
		if a, err := strategies.Lookup(n); err == nil && !slices.Contains(classicAssignors, a.Name()) {
			classicAssignors = append(classicAssignors, a.Name())
		}
	}
	pickTopics := func(label string) []string { return pickTopics(t, label, topics) }
	taken := map[kafka.TP]bool{}
	n := rapid.IntRange(0, 4).Draw(t, "members")
	ids := distinct(t, "ids", n, 1)
	instances := distinct(t, "instances", n, 1)
	memberIDs := distinct(t, "member ids", n, 1)
	for i, id := range ids {
		m := MemberSpec{ID: id, Topics: pickTopics("topics " + id)}
		if rapid.Bool().Draw(t, "static "+id) {
			m.Instance = instances[i]
		}
		m.Settings = genSettings(t, sc, id, !given) // a given start is of one protocol
		if sc.MemberProtocol(m.Settings) == ProtocolClassic && rapid.Bool().Draw(t, "strategies "+id) {
			m.Strategies = subset(t, "assignors "+id, classicAssignors)
			if given && !slices.Contains(m.Strategies, sc.Strategy) {
				// A given classic start needs an assignor every member shares.
				m.Strategies = append(m.Strategies, sc.Strategy)
			}
		}
		if given {
			if rapid.Bool().Draw(t, "member id "+id) {
				m.MemberID = memberIDs[i]
			}
			for _, topic := range m.Topics {
				for p := int32(0); p < sc.Topics[topic]; p++ {
					tp := kafka.TP{Topic: topic, Partition: p}
					if !taken[tp] && rapid.Bool().Draw(t, "own") {
						taken[tp] = true
						m.Owned = append(m.Owned, tp)
					}
				}
			}
			kafka.SortTPs(m.Owned)
		}
		sc.Members = append(sc.Members, m)
	}
	known := slices.Clone(ids)
	stopped := map[string]bool{} // the parser refuses a leave or crash of a stopped member
	var at int64
	for range rapid.IntRange(0, 6).Draw(t, "events") {
		at += rapid.Int64Range(0, 100000).Draw(t, "gap")
		ev := Event{AtMs: at}
		kinds := []string{"join", "add_partitions", "fail_broker", "recover_broker", "remove_members"}
		if len(known) > 0 {
			kinds = append(kinds, "leave", "crash", "restart", "stall", "subscribe", "commit", "disconnect", "wakeup")
		}
		ev.Kind = rapid.SampledFrom(kinds).Draw(t, "kind")
		switch ev.Kind {
		case "join":
			ev.Member = text(t, "join id", 1)
			ev.Topics = pickTopics("join topics")
			if rapid.Bool().Draw(t, "join static") {
				ev.Instance = text(t, "join instance", 1)
			}
			ev.Settings = genSettings(t, sc, ev.Member, true)
			if sc.MemberProtocol(ev.Settings) == ProtocolClassic && rapid.Bool().Draw(t, "join strategies") {
				ev.Strategies = subset(t, "join assignors", classicAssignors)
			}
			known = append(known, ev.Member)
			stopped[ev.Member] = false
		case "add_partitions":
			ev.Topic = rapid.SampledFrom(topics).Draw(t, "grow")
			ev.Count = rapid.Int32Range(1, 20).Draw(t, "to")
		case "fail_broker", "recover_broker":
			ev.Broker = rapid.IntRange(0, sc.Brokers-1).Draw(t, "broker")
		case "remove_members":
			if rapid.Bool().Draw(t, "remove all") {
				ev.All = true
			} else {
				ev.Instances = distinct(t, "remove instances", rapid.IntRange(1, 3).Draw(t, "removed"), 1)
			}
		default:
			ev.Member = rapid.SampledFrom(known).Draw(t, "who")
			switch {
			case (ev.Kind == "leave" || ev.Kind == "crash") && stopped[ev.Member]:
				ev.Kind, stopped[ev.Member] = "restart", false
			case ev.Kind == "leave" || ev.Kind == "crash":
				stopped[ev.Member] = true
			case ev.Kind == "restart":
				stopped[ev.Member] = false
			}
			switch ev.Kind {
			case "stall", "disconnect":
				ev.Ms = rapid.Int64Range(1, 1000000).Draw(t, "ms")
			case "restart":
				// A protocol change keeps a valid member valid only when it
				// has no classic-only settings: drawn for members without.
				if s, strats := settingsBy(sc, ev.Member, ev.AtMs); rapid.Bool().Draw(t, "restart protocol") {
					s.Protocol = rapid.SampledFrom([]string{ProtocolClassic, ProtocolConsumer}).Draw(t, "to protocol")
					if (s.Protocol == ProtocolClassic || strats == nil) && CheckSettings(sc, ev.Member, s) == nil {
						ev.Settings.Protocol = s.Protocol
					}
				}
			case "subscribe":
				ev.Topics = subset(t, "subscribe", topics)
			case "commit":
				if rapid.Bool().Draw(t, "stale") {
					g := rapid.Int32Range(-1, 1000).Draw(t, "commit generation")
					ev.Generation = &g
				}
			}
		}
		sc.Timeline = append(sc.Timeline, ev)
	}
	if rapid.Bool().Draw(t, "flow") {
		sc.Flow = genFlow(t, sc, topics, known)
	}
	return sc
}

// genSettings draws a member's own configuration, valid for its protocol.
func genSettings(t *rapid.T, sc *Scenario, id string, protocol bool) MemberSettings {
	var s MemberSettings
	if !rapid.Bool().Draw(t, "settings "+id) {
		return s
	}
	if protocol && rapid.Bool().Draw(t, "protocol "+id) {
		s.Protocol = rapid.SampledFrom([]string{ProtocolClassic, ProtocolConsumer}).Draw(t, "member protocol "+id)
	}
	if rapid.Bool().Draw(t, "max poll "+id) {
		s.MaxPollIntervalMs = rapid.Int64Range(1, 1000000).Draw(t, "member max poll "+id)
	}
	if sc.MemberProtocol(s) == ProtocolClassic {
		if rapid.Bool().Draw(t, "session "+id) {
			s.SessionTimeoutMs = rapid.Int64Range(minSessionMs, 100000).Draw(t, "member session "+id)
		}
		if rapid.Bool().Draw(t, "heartbeat "+id) {
			s.HeartbeatIntervalMs = rapid.Int64Range(1, sc.SessionTimeout(s)-1).Draw(t, "member heartbeat "+id)
		}
		if rapid.Bool().Draw(t, "rejoin commit "+id) {
			ms := rapid.Int64Range(0, 10000).Draw(t, "member rejoin commit "+id)
			s.RejoinCommitMs = &ms
		}
	}
	if rapid.Bool().Draw(t, "listener "+id) {
		s.Listener.RevokedMs = rapid.Int64Range(0, 400000).Draw(t, "revoked ms "+id)
		s.Listener.AssignedMs = rapid.Int64Range(0, 1000).Draw(t, "assigned ms "+id)
		s.Listener.LostMs = rapid.Int64Range(0, 1000).Draw(t, "lost ms "+id)
		for _, cb := range callbackNames {
			if rapid.Bool().Draw(t, "throws "+cb+" "+id) {
				s.Listener.Throws = append(s.Listener.Throws, cb)
			}
		}
	}
	if CheckSettings(sc, id, s) != nil {
		return MemberSettings{}
	}
	return s
}

// genFlow draws a data path, merging consumer settings as the parser does.
func genFlow(t *rapid.T, sc *Scenario, topics, ids []string) *FlowSpec {
	p := &parser{file: "gen.yaml"}
	settings := func(label string) consumerSettings {
		var s consumerSettings
		if rapid.Bool().Draw(t, label+" rate") {
			r := rapid.Float64Range(0.001, 1e9).Draw(t, label+" r")
			s.rate = &r
		}
		switch rapid.IntRange(0, 3).Draw(t, label+" commit") {
		case 1:
			b := true
			s.autoCommit = &b
		case 2, 3:
			c := rapid.SampledFrom([]string{"sync", "async"}).Draw(t, label+" mode")
			s.commit = &c
			if rapid.Bool().Draw(t, label+" explicit") {
				b := false
				s.autoCommit = &b
			}
		}
		if rapid.Bool().Draw(t, label+" interval") {
			ms := rapid.Int64Range(1, 100000).Draw(t, label+" ms")
			s.intervalMs = &ms
		}
		if rapid.Bool().Draw(t, label+" reset") {
			r := rapid.SampledFrom([]string{"earliest", "latest", "none"}).Draw(t, label+" r")
			s.reset = &r
		}
		return s
	}
	group := settings("group")
	cfg, err := p.config(group, consumerSettings{}, "group")
	if err != nil {
		t.Fatal(err)
	}
	f := &FlowSpec{Consumer: cfg}
	for _, id := range ids {
		if rapid.Bool().Draw(t, "own settings "+id) {
			c, err := p.config(group, settings(id), id)
			if err != nil {
				t.Fatal(err)
			}
			if f.Members == nil {
				f.Members = map[string]produce.ConsumerConfig{}
			}
			f.Members[id] = c
		}
	}
	for range rapid.IntRange(0, 2).Draw(t, "producers") {
		pc := produce.ProducerConfig{Topic: rapid.SampledFrom(topics).Draw(t, "ptopic")}
		if rapid.Bool().Draw(t, "pname") {
			pc.Name = text(t, "producer name", 1)
		}
		if rapid.Bool().Draw(t, "prate") {
			pc.Rate = rapid.Float64Range(0, 1e6).Draw(t, "rate")
		}
		switch rapid.IntRange(0, 4).Draw(t, "keys") {
		case 1:
			pc.Keys = produce.Keys{Kind: produce.KeysNull}
		case 2:
			pc.Keys = produce.Keys{Kind: produce.KeysFixed, Fixed: rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return text(t, "k", 0) }), 1, 3).Draw(t, "fixed")}
		case 3:
			pc.Keys = produce.Keys{Kind: produce.KeysUniform, Count: rapid.IntRange(1, 1000).Draw(t, "uniform")}
		case 4:
			pc.Keys = produce.Keys{Kind: produce.KeysHot, Hot: text(t, "hot", 1), HotShare: rapid.Float64Range(0.01, 1).Draw(t, "share"),
				Count: rapid.IntRange(0, 100).Draw(t, "hot count")}
		}
		pc.Partitioner = rapid.SampledFrom(append([]string{""}, strategies.PartitionerNames()...)).Draw(t, "partitioner")
		pc.Version = rapid.SampledFrom([]string{"", "2.3", "3.2", "4.0"}).Draw(t, "version")
		if rapid.Bool().Draw(t, "batch") {
			pc.BatchSize = rapid.IntRange(1, 1<<20).Draw(t, "batch size")
		}
		if rapid.Bool().Draw(t, "linger") {
			l := rapid.IntRange(0, 10000).Draw(t, "linger ms")
			pc.LingerMs = &l
		}
		if rapid.Bool().Draw(t, "value") {
			pc.ValueBytes = rapid.IntRange(1, 1<<20).Draw(t, "value bytes")
		}
		trial := produce.NewSim(0)
		if trial.AddTopic(pc.Topic, int(sc.Topics[pc.Topic])) != nil {
			continue
		}
		if _, err := trial.AddProducer(pc); err != nil {
			continue // a partitioner the version lacks: the parser refuses it too
		}
		f.Producers = append(f.Producers, pc)
	}
	for range rapid.IntRange(0, 3).Draw(t, "produces") {
		pe := ProduceEvent{AtMs: rapid.Int64Range(0, 100000).Draw(t, "produce at"), Topic: rapid.SampledFrom(topics).Draw(t, "produce topic"),
			Count: rapid.IntRange(1, 1000).Draw(t, "produce count")}
		if rapid.Bool().Draw(t, "keyed") {
			pe.Key = []byte(text(t, "key", 0))
		}
		f.Produces = append(f.Produces, pe)
	}
	for i, name := range distinct(t, "readers", rapid.IntRange(0, 2).Draw(t, "reader count"), 1) {
		if name == sc.GroupID {
			continue
		}
		r := ReaderSpec{Group: name, Topics: pickTopics(t, "reader topics", topics)}
		if rapid.Bool().Draw(t, "reader at") {
			r.AtMs = rapid.Int64Range(1, 100000).Draw(t, "reader at ms")
		}
		c, err := p.config(consumerSettings{}, settings("reader"+strconv.Itoa(i)), name)
		if err != nil {
			t.Fatal(err)
		}
		r.Consumer = c
		f.Readers = append(f.Readers, r)
	}
	if len(f.Producers) == 0 && len(f.Produces) == 0 && len(f.Readers) == 0 {
		return nil
	}
	return f
}

// FuzzFormatRoundTrip: whatever the parser accepts, Format writes
// back so that it parses to the same scenario.
func FuzzFormatRoundTrip(f *testing.F) {
	for _, d := range shippedDemos(f) {
		f.Add(d.data)
	}
	f.Add([]byte("topics: {t0: 3}\ngroup: {generation: 2}\nmembers:\n  - {id: 'a: b', owned: {t0: [0]}, member_id: \"#x\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse("f.yaml", data)
		if err != nil {
			return
		}
		if _, err := Format(sc); err != nil {
			t.Fatalf("a parsed scenario does not format: %v", err)
		}
		roundTrip(t, sc)
	})
}

// shippedDemos reads the demo files beside the embedded catalogue (demo/
// imports this package, so its tests read the files instead).
func shippedDemos(t testing.TB) []shippedDemo {
	paths, err := filepath.Glob("../../demo/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no demo files under ../../demo: %v", err)
	}
	var out []shippedDemo
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, shippedDemo{strings.TrimSuffix(filepath.Base(p), ".yaml"), data})
	}
	return out
}

type shippedDemo struct {
	name string
	data []byte
}
