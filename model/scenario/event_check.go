package scenario

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// countAt is the topic's partition count at atMs: its count at the start,
// grown by the timeline's add_partitions up to then.
func countAt(sc *Scenario, topic string, atMs int64) int32 {
	if sc.ChangesTopics() {
		return TopicsBefore(sc, Event{AtMs: atMs})[topic]
	}
	n := sc.Topics[topic]
	for _, ev := range sc.Timeline {
		if ev.AtMs <= atMs && ev.Kind == "add_partitions" && ev.Topic == topic {
			n = max(n, ev.Count)
		}
	}
	return n
}

// CheckEvent is the rule for what a timeline event may say, given the
// scenario and the events before it: the parser checks every entry of a
// file with it (and adds the entry's line), Sim.Insert every event a key
// inserts. The parser's own checks are about the YAML's shape.
func CheckEvent(sc *Scenario, ev Event) error { return checkEventAmong(sc, ev, nil) }

// checkEventAmong is CheckEvent given started, when not nil: the members
// membersBy(sc, ev.AtMs) lists, as a set, which the parser keeps as it walks
// the sorted timeline, so that a file's timeline is checked in time linear
// in its length.
func checkEventAmong(sc *Scenario, ev Event, started map[string]bool) error {
	if ev.AtMs < 0 || ev.AtMs > MaxTimelineMs {
		return fmt.Errorf("at_ms must be between 0 and %d, got %d", int64(MaxTimelineMs), ev.AtMs)
	}
	if sc.Share != nil {
		if err := checkShareEvent(sc, ev); err != nil || slices.Contains(ShareEventKinds, ev.Kind) {
			return err
		}
	}
	if !slices.Contains(EventKinds, ev.Kind) {
		return fmt.Errorf("unknown action %q%s", ev.Kind, Suggest(ev.Kind, EventKinds))
	}
	switch ev.Kind {
	case "fail_broker", "recover_broker":
		if ev.Broker < 0 || ev.Broker >= sc.Brokers {
			return fmt.Errorf("%s: broker %d does not exist (0..%d)", ev.Kind, ev.Broker, sc.Brokers-1)
		}
		return nil
	case "create_topic", "delete_topic":
		return checkTopicEvent(sc, ev)
	case "add_partitions":
		counts := sc.Topics
		if sc.ChangesTopics() {
			counts = TopicsBefore(sc, ev) // a topic the timeline creates may grow
		}
		if _, ok := counts[ev.Topic]; !ok {
			return fmt.Errorf("add_partitions: unknown topic %q%s", ev.Topic, Suggest(ev.Topic, strategies.SortedTopics(counts)))
		}
		if ev.Count < 1 || ev.Count > strategies.MaxPartitions {
			return fmt.Errorf("add_partitions.count must be between 1 and %d, got %d", strategies.MaxPartitions, ev.Count)
		}
		if n := countAt(sc, ev.Topic, ev.AtMs); ev.Inserting && ev.Count <= n {
			return fmt.Errorf("add_partitions: %s has %d partitions at %d ms; partitions are only ever added (CreatePartitions refuses %d: INVALID_PARTITIONS)", ev.Topic, n, ev.AtMs, ev.Count)
		}
		return nil
	case "stall":
		if ev.Ms <= 0 {
			return fmt.Errorf("stall needs a positive ms")
		}
	case "subscribe":
		if ev.Settings.Pattern != "" {
			if err := checkSubscribePattern(sc, ev); err != nil {
				return err
			}
		} else if len(ev.Topics) == 0 {
			return fmt.Errorf("subscribe needs at least one topic (an empty subscription is unsubscribe(); use leave)")
		}
	case "disconnect":
		if ev.Ms <= 0 {
			return fmt.Errorf("disconnect needs a positive ms")
		}
	case "remove_members":
		if !ev.All && len(ev.Instances) == 0 {
			return fmt.Errorf("remove_members needs instances or all")
		}
		return nil
	case "join":
		if err := CheckSettings(sc, ev.Member, ev.Settings); err != nil {
			return err
		}
	case "restart":
		if ev.Settings.Protocol != "" {
			if err := checkRestartProtocol(sc, ev); err != nil {
				return err
			}
		}
	}
	if ev.Member == "" {
		return fmt.Errorf("%s needs a member id", ev.Kind)
	}
	// A subscription may name a topic that does not exist: Kafka takes it
	// (DESIGN.md, "Topics that do not exist").
	if ev.Kind == "join" {
		return nil
	}
	if started != nil && started[ev.Member] {
		return nil
	}
	if known := membersBy(sc, ev.AtMs); !slices.Contains(known, ev.Member) {
		return fmt.Errorf("%s: no member %q has joined by %d ms%s", ev.Kind, ev.Member, ev.AtMs, Suggest(ev.Member, known))
	}
	return nil
}

// membersBy lists, sorted, the members the scenario has started by time ms:
// those present at time 0 and those whose join comes at or before ms.
func membersBy(sc *Scenario, ms int64) []string {
	var out []string
	for _, m := range sc.Members {
		out = append(out, m.ID)
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" && ev.AtMs <= ms {
			out = append(out, ev.Member)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Label says what an event is in a few words: "c4 joins".
func (ev Event) Label() string {
	switch ev.Kind {
	case "join":
		return ev.Member + " joins"
	case "leave":
		return ev.Member + " leaves"
	case "crash":
		return ev.Member + " crashes"
	case "restart":
		if ev.Settings.Protocol != "" {
			return fmt.Sprintf("%s restarts with group.protocol=%s", ev.Member, ev.Settings.Protocol)
		}
		return ev.Member + " restarts"
	case "stall":
		return fmt.Sprintf("%s stalls %d ms", ev.Member, ev.Ms)
	case "subscribe":
		if ev.Settings.Pattern != "" {
			return fmt.Sprintf("%s subscribes to pattern %q", ev.Member, ev.Settings.Pattern)
		}
		return fmt.Sprintf("%s subscribes to %v", ev.Member, ev.Topics)
	case "add_partitions":
		return fmt.Sprintf("%s grows to %d partitions", ev.Topic, ev.Count)
	case "create_topic":
		return fmt.Sprintf("topic %s is created (%d partitions)", ev.Topic, ev.Count)
	case "delete_topic":
		return fmt.Sprintf("topic %s is deleted", ev.Topic)
	case "fail_broker":
		return fmt.Sprintf("broker %d fails", ev.Broker)
	case "recover_broker":
		return fmt.Sprintf("broker %d recovers", ev.Broker)
	case "remove_members":
		if ev.All {
			return "an admin removes every member"
		}
		return fmt.Sprintf("an admin removes %v", ev.Instances)
	case "disconnect":
		return fmt.Sprintf("%s is cut off %d ms", ev.Member, ev.Ms)
	case "wakeup":
		return ev.Member + " is woken up"
	}
	if ev.Member != "" {
		return ev.Member + " " + ev.Kind
	}
	return ev.Kind
}
