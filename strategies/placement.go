package strategies

import "fmt"

// PlaceReplicas is Kafka's rack-unaware replica placement
// (AdminUtils.assignReplicasToBrokersRackUnaware) over brokers 0..brokers-1.
// It returns, for each partition, its replicas; the first is the preferred
// leader. startIndex and shift are Kafka's random start index and shift.
func PlaceReplicas(brokers, partitions, replicationFactor, startIndex, shift int) ([][]int, error) {
	if brokers <= 0 {
		return nil, fmt.Errorf("brokers must be at least 1, got %d", brokers)
	}
	if err := checkPlacement(brokers, partitions, replicationFactor, startIndex, shift); err != nil {
		return nil, err
	}
	return placeUnaware(brokers, 0, partitions, replicationFactor, startIndex, shift), nil
}

// placeUnaware is the rack-unaware walk over broker indexes for partitions
// firstPartition..firstPartition+count-1. Adding partitions to a topic starts
// the walk at the current count, so the shift grows at each multiple of the
// broker count met from there (AdminUtils' startPartitionId).
func placeUnaware(brokers, firstPartition, count, replicationFactor, startIndex, shift int) [][]int {
	out := make([][]int, count)
	for i := range count {
		p := firstPartition + i
		if p > 0 && p%brokers == 0 {
			shift++
		}
		first := (p + startIndex) % brokers
		replicas := make([]int, 1, replicationFactor)
		replicas[0] = first
		for j := 0; j < replicationFactor-1; j++ {
			replicas = append(replicas, replicaIndex(first, shift, j, brokers))
		}
		out[i] = replicas
	}
	return out
}

func replicaIndex(first, shift, j, n int) int {
	return (first + 1 + (shift+j)%(n-1)) % n
}
