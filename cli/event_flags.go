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
}

func (f *eventFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.leave, "leave", "", "the member leaves (LeaveGroup; a static member just stops)")
	fl.StringVar(&f.crash, "crash", "", "the member's process dies (no LeaveGroup)")
	fl.StringVar(&f.restart, "restart", "", "the member's process restarts")
	fl.StringVar(&f.join, "join", "", "a new member joins: ID or ID:t1,t2 (default: every topic)")
	fl.StringVar(&f.addPartitions, "add-partitions", "", "a topic grows: TOPIC:N (the new total)")
	fl.StringVar(&f.restartAs, "restart-as", "", "the member's rolling bounce to a group.protocol: M:consumer or M:classic (KIP-848's online migration)")
}

// given reports whether an event flag is set.
func (f *eventFlags) given() bool {
	return f.leave != "" || f.crash != "" || f.restart != "" || f.join != "" || f.addPartitions != ""
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
