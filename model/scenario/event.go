package scenario

import ()

// Event is something that happens to the group at a point of the timeline:
// a scenario's timeline entry, or one the lab inserts as a what-if.
type Event struct {
	AtMs     int64
	Kind     string   // join|leave|crash|restart|stall|subscribe|add_partitions|commit|fail_broker|recover_broker
	Member   string   // the member's client id (join, leave, crash, restart, stall, subscribe, commit)
	Topics   []string // join, subscribe
	Instance string   // join: group.instance.id ("" = dynamic)
	Rack     string   // join: client.rack ("" = not set)
	// Strategies, on a join: the member's assignor list (nil = the group's).
	Strategies []string
	Client     string // join: the member's client library ("" = the group's)
	Topic      string // add_partitions, create_topic, delete_topic
	Count      int32  // add_partitions: the new total; create_topic: its partitions
	Ms         int64  // stall: how long poll() is not called
	Broker     int    // fail_broker, recover_broker
	// Generation, when set on a commit, is the generation the commit carries
	// (an application holding stale group metadata); nil = the member's own.
	Generation *int32
	// Settings, on a join, are the member's own configuration; on a
	// restart, Settings.Protocol (when set) is the group.protocol the
	// process comes back with (a rolling upgrade or downgrade); on a
	// subscribe, Settings.Pattern (when set) is the pattern it subscribes
	// to instead of Topics (subscribe(Pattern)).
	Settings MemberSettings
	// Instances, on remove_members, are the group.instance.ids an
	// administrator removes (Admin.removeMembersFromConsumerGroup); All
	// removes every member.
	Instances []string
	All       bool
	// Share is a share group's records, fetch or acknowledge (share.go).
	Share     *ShareEvent
	line      int  // scenario line, for error messages; 0 when inserted
	Inserting bool // the event Sim.Insert is adding: a leave or crash of a stopped member is an error
}

// Line is the entry's line in its scenario file (0 when inserted).
func (e Event) Line() int { return e.line }

// EventKinds lists the event kinds in the order the docs present them.
var EventKinds = []string{"join", "leave", "crash", "restart", "stall", "subscribe",
	"add_partitions", "commit", "fail_broker", "recover_broker", "remove_members", "disconnect", "wakeup",
	"create_topic", "delete_topic"}
