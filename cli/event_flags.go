package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/model/scenario"
)

// eventFlags are the what-if event flags whatif and compare share: one of
// --leave, --crash, --restart, --join, --add-partitions.
type eventFlags struct {
	leave, crash, restart, join, addPartitions string
	restartAs                                  string // M:classic|consumer, a rolling bounce to that group.protocol
	// issue 23's events: an admin's removal, one member cut off, wakeup(),
	// topics created and deleted during the run
	removeMembers, disconnect, wakeup, createTopic, deleteTopic string
}

func (f *eventFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.leave, "leave", "", "the member leaves (LeaveGroup; a static member just stops)")
	fl.StringVar(&f.crash, "crash", "", "the member's process dies (no LeaveGroup)")
	fl.StringVar(&f.restart, "restart", "", "the member's process restarts")
	fl.StringVar(&f.join, "join", "", "a new member joins: ID or ID:t1,t2 (default: every topic)")
	fl.StringVar(&f.addPartitions, "add-partitions", "", "a topic grows: TOPIC:N (the new total)")
	fl.StringVar(&f.restartAs, "restart-as", "", "the member's rolling bounce to a group.protocol: M:consumer or M:classic (KIP-848's online migration)")
	fl.StringVar(&f.removeMembers, "remove-members", "", "an administrator removes members: I1,I2 (group.instance.ids) or all (kafka-consumer-groups --delete-members)")
	fl.StringVar(&f.disconnect, "disconnect", "", "the member is cut off from every broker while it runs: M:MS")
	fl.StringVar(&f.wakeup, "wakeup", "", "KafkaConsumer.wakeup(): the member's poll() throws")
	fl.StringVar(&f.createTopic, "create-topic", "", "a topic is created: TOPIC:N (N partitions; pattern subscriptions may match it)")
	fl.StringVar(&f.deleteTopic, "delete-topic", "", "a topic is deleted: TOPIC (its partitions are revoked at the next rebalance)")
}

// given reports whether an event flag is set.
func (f *eventFlags) given() bool {
	return f.leave != "" || f.crash != "" || f.restart != "" || f.join != "" || f.addPartitions != "" ||
		f.removeMembers != "" || f.disconnect != "" || f.wakeup != "" || f.createTopic != "" || f.deleteTopic != ""
}

// event is the event the flags name at atMs, or nil when none is given.
func (f *eventFlags) event(atMs int64) (*scenario.Event, error) {
	var evs []scenario.Event
	for kind, member := range map[string]string{"leave": f.leave, "crash": f.crash, "restart": f.restart} {
		if member != "" {
			evs = append(evs, scenario.Event{Kind: kind, Member: member})
		}
	}
	if f.join != "" {
		id, topics, _ := strings.Cut(f.join, ":")
		ev := scenario.Event{Kind: "join", Member: id}
		if topics != "" {
			ev.Topics = strings.Split(topics, ",")
		}
		if id == "" {
			return nil, usageErrf("--join needs a member id, like --join c4 or --join c4:t0,t1")
		}
		evs = append(evs, ev)
	}
	if f.restartAs != "" {
		id, proto, _ := strings.Cut(f.restartAs, ":")
		if id == "" || (proto != scenario.ProtocolConsumer && proto != scenario.ProtocolClassic) {
			return nil, usageErrf("--restart-as must look like M:consumer or M:classic, got %q", f.restartAs)
		}
		evs = append(evs, scenario.Event{Kind: "restart", Member: id, Settings: scenario.MemberSettings{Protocol: proto}})
	}
	if f.addPartitions != "" {
		topic, n, ok := strings.Cut(f.addPartitions, ":")
		count, err := strconv.ParseInt(n, 10, 32)
		if !ok || topic == "" || err != nil {
			return nil, usageErrf("--add-partitions must look like TOPIC:N (the new total), got %q", f.addPartitions)
		}
		evs = append(evs, scenario.Event{Kind: "add_partitions", Topic: topic, Count: int32(count)})
	}
	more, err := f.issue23Events()
	if err != nil {
		return nil, err
	}
	evs = append(evs, more...)
	switch len(evs) {
	case 0:
		return nil, nil
	case 1:
		evs[0].AtMs = atMs
		return &evs[0], nil
	}
	return nil, usageErrf("give one event (--leave, --crash, --restart, --join or --add-partitions), got %d", len(evs))
}

// eventJSON is an event as the twins print it.
func eventJSON(ev scenario.Event) map[string]any {
	out := map[string]any{"kind": ev.Kind}
	if ev.Member != "" {
		out["member"] = ev.Member
	}
	if ev.Kind == "join" {
		out["topics"] = ev.Topics
	}
	if ev.Kind == "add_partitions" {
		out["topic"], out["count"] = ev.Topic, ev.Count
	}
	switch ev.Kind {
	case "create_topic":
		out["topic"], out["partitions"] = ev.Topic, ev.Count
	case "delete_topic":
		out["topic"] = ev.Topic
	case "disconnect":
		out["ms"] = ev.Ms
	case "remove_members":
		if ev.All {
			out["all"] = true
		} else {
			out["instances"] = ev.Instances
		}
	}
	if ev.Settings.Protocol != "" {
		out["protocol"] = ev.Settings.Protocol
	}
	return out
}

// resolveMember lets an event name a member of an imported file by its
// real member id, turned into the member's scenario id (its client id where
// one member has it, live.Import). Other names are left to the event's own
// check.
func resolveMember(sc *scenario.Scenario, ev *scenario.Event) {
	if ev == nil || ev.Member == "" || ev.Kind == "join" {
		return
	}
	for _, m := range sc.Members {
		if m.ID == ev.Member {
			return
		}
	}
	for _, m := range sc.Members {
		if m.MemberID != "" && m.MemberID == ev.Member {
			ev.Member = m.ID
			return
		}
	}
}

// issue23Events is the events of the issue 23 flags.
func (f *eventFlags) issue23Events() ([]scenario.Event, error) {
	var evs []scenario.Event
	if f.removeMembers != "" {
		ev := scenario.Event{Kind: "remove_members"}
		if f.removeMembers == "all" {
			ev.All = true
		} else {
			for _, s := range strings.Split(f.removeMembers, ",") {
				if s = strings.TrimSpace(s); s != "" {
					ev.Instances = append(ev.Instances, s)
				}
			}
		}
		if !ev.All && len(ev.Instances) == 0 {
			return nil, usageErrf("--remove-members must list group.instance.ids (i1,i2) or be all, got %q", f.removeMembers)
		}
		evs = append(evs, ev)
	}
	if f.disconnect != "" {
		id, n, ok := strings.Cut(f.disconnect, ":")
		ms, err := strconv.ParseInt(n, 10, 64)
		if !ok || id == "" || err != nil || ms <= 0 {
			return nil, usageErrf("--disconnect must look like M:MS (how long it is cut off), got %q", f.disconnect)
		}
		evs = append(evs, scenario.Event{Kind: "disconnect", Member: id, Ms: ms})
	}
	if f.wakeup != "" {
		evs = append(evs, scenario.Event{Kind: "wakeup", Member: f.wakeup})
	}
	if f.createTopic != "" {
		topic, n, ok := strings.Cut(f.createTopic, ":")
		count, err := strconv.ParseInt(n, 10, 32)
		if !ok || topic == "" || err != nil {
			return nil, usageErrf("--create-topic must look like TOPIC:N (its partitions), got %q", f.createTopic)
		}
		evs = append(evs, scenario.Event{Kind: "create_topic", Topic: topic, Count: int32(count)})
	}
	if f.deleteTopic != "" {
		evs = append(evs, scenario.Event{Kind: "delete_topic", Topic: f.deleteTopic})
	}
	return evs, nil
}
