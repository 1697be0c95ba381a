package scenario

// Assignment batching (KAFKA-20291, KIP-1263, Kafka 4.3): the KIP-848
// coordinator computes a new target at most once per assignment interval.
// The broker config is group.consumer.assignment.interval.ms (default 1000,
// at least 0), a group may override it with consumer.assignment.interval.ms,
// bounded by group.consumer.min/max.assignment.interval.ms (0 and 15000)
// [apache/kafka GroupCoordinatorConfig and GroupConfig, 001916d; PR #21627
// GroupMetadataManager.consumerGroupAssignmentIntervalMs]. 0 turns batching
// off, the behaviour of 4.0-4.2.
const (
	defaultAssignmentIntervalMs = 1000
	minAssignmentIntervalMs     = 0
	maxAssignmentIntervalMs     = 15000
	assignmentIntervalKey       = "assignment_interval_ms"
)

// AssignmentIntervalMs is the assignment interval the scenario's
// coordinator keeps between two target computations: group.
// assignment_interval_ms, else Kafka's default, from Kafka 4.3 on; 0 (a
// target on every group-epoch bump) before.
func (sc *Scenario) AssignmentIntervalMs() int64 {
	if !sc.KafkaVersion.BatchesAssignments() {
		return 0
	}
	if v, ok := sc.groupSet[assignmentIntervalKey]; ok {
		return v
	}
	return defaultAssignmentIntervalMs
}
