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
	out := make([][]int, partitions)
	for p := 0; p < partitions; p++ {
		if p > 0 && p%brokers == 0 {
			shift++
		}
		first := (p + startIndex) % brokers
		replicas := []int{first}
		for j := 0; j < replicationFactor-1; j++ {
			replicas = append(replicas, replicaIndex(first, shift, j, brokers))
		}
		out[p] = replicas
	}
	return out, nil
}

func replicaIndex(first, shift, j, n int) int {
	return (first + 1 + (shift+j)%(n-1)) % n
}
