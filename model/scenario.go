package model

// Scenario is a parsed scenario file: the cluster, the group's settings, the
// members present at time 0 and the timeline of what happens next.
type Scenario struct {
	File  string // where it came from, for messages
	Name  string
	Title string
	Notes string
	Seed  int64

	Brokers           int
	OffsetsPartitions int32
	Topics            map[string]int32 // topic -> partition count

	GroupID                 string
	Strategy                string // kviz strategy name
	Protocol                string // eager | cooperative | consumer
	SessionTimeoutMs        int64
	HeartbeatIntervalMs     int64
	MaxPollIntervalMs       int64 // also the rebalance timeout
	InitialRebalanceDelayMs int64

	Members  []MemberSpec // start at time 0, in this order
	Timeline []Event      // sorted by AtMs, stable

	// Flow is the data path (producers, consumer rates, offsets); nil when
	// the scenario has no producers: and no produce: entries.
	Flow *FlowSpec

	// groupSet holds the group timeouts the scenario gave explicitly (by
	// their file key); the others follow Kafka's defaults for the protocol,
	// and are derived again when a variation changes it (vary.go).
	groupSet map[string]int64
}

// MemberSpec is a member present from the start.
type MemberSpec struct {
	ID       string
	Instance string
	Topics   []string
	// Strategies is the member's partition.assignment.strategy, in order
	// (kviz names); nil = [group.strategy]. Classic protocol only.
	Strategies []string
}
