package scenario

// Timing is one timeout or interval a run uses, and where its value came
// from: every prediction lists them, so one made on an assumed 45 s session
// timeout says so.
type Timing struct {
	Key     string `json:"key"`      // the scenario's group key, e.g. session_timeout_ms
	Kafka   string `json:"kafka"`    // Kafka's name of the setting
	ValueMs int64  `json:"value_ms"` // the value the run used
	// Source is where the value came from: timings_from's text (a read
	// from the cluster, a flag), "scenario file" (written under group:
	// without a source) or "Kafka default".
	Source string `json:"source"`
}

// Sources a Timing names when timings_from does not.
const (
	SourceFile    = "scenario file"
	SourceDefault = "Kafka default"
)

// TimingKeys are the group keys timings_from may name.
func TimingKeys() []string {
	return []string{"session_timeout_ms", "heartbeat_interval_ms", "max_poll_interval_ms", "initial_rebalance_delay_ms", assignmentIntervalKey}
}

// Timings lists the timing values a run of sc uses, in TimingKeys order:
// under the classic protocol the consumer's session, heartbeat and poll
// timeouts and the broker's initial rebalance delay; under KIP-848 the
// coordinator's session timeout and heartbeat interval, the consumer's
// max.poll.interval.ms (its rebalance timeout) and, from Kafka 4.3, the
// assignment interval.
func Timings(sc *Scenario) []Timing {
	type row struct {
		key, kafka string
		v          int64
	}
	rows := []row{
		{"session_timeout_ms", "session.timeout.ms", sc.SessionTimeoutMs},
		{"heartbeat_interval_ms", "heartbeat.interval.ms", sc.HeartbeatIntervalMs},
		{"max_poll_interval_ms", "max.poll.interval.ms", sc.MaxPollIntervalMs},
		{"initial_rebalance_delay_ms", "group.initial.rebalance.delay.ms", sc.InitialRebalanceDelayMs},
	}
	if IsConsumer(sc) {
		rows[0].kafka, rows[1].kafka = "group.consumer.session.timeout.ms", "group.consumer.heartbeat.interval.ms"
		rows = rows[:3] // the initial delay holds back classic join phases only
		if sc.KafkaVersion.BatchesAssignments() {
			rows = append(rows, row{assignmentIntervalKey, "group.consumer.assignment.interval.ms", sc.AssignmentIntervalMs()})
		}
	}
	out := make([]Timing, 0, len(rows))
	for _, r := range rows {
		t := Timing{Key: r.key, Kafka: r.kafka, ValueMs: r.v, Source: SourceDefault}
		if _, given := sc.groupSet[r.key]; given {
			t.Source = SourceFile
		}
		if s, ok := sc.TimingSources[r.key]; ok {
			t.Source = s
		}
		out = append(out, t)
	}
	return out
}

// SetTiming gives a group timing a value as the file would under group:,
// with where it came from; the caller re-derives the group
// (WithStrategy) so the other defaults follow. An unknown key is an error.
func (sc *Scenario) SetTiming(key string, ms int64, source string) error {
	known := false
	for _, k := range TimingKeys() {
		known = known || k == key
	}
	if !known {
		return &groupError{key, "unknown timing " + key}
	}
	if sc.groupSet == nil {
		sc.groupSet = map[string]int64{}
	}
	sc.groupSet[key] = ms
	if source != "" {
		if sc.TimingSources == nil {
			sc.TimingSources = map[string]string{}
		}
		sc.TimingSources[key] = source
	}
	return nil
}
