package strategies

import (
	"fmt"
	"sort"
)

// BrokerRack is a broker id and its rack ("" = no rack).
type BrokerRack struct {
	ID   int
	Rack string
}

// PlaceReplicasOn is AdminUtils.assignReplicasToBrokers over real broker ids:
// rack-unaware when no broker has a rack, rack-aware when all have one, an
// error when only some do (Kafka's AdminOperationException). Broker ids are
// sorted first, as the controller lists them.
func PlaceReplicasOn(brokers []BrokerRack, partitions, replicationFactor, startIndex, shift int) ([][]int, error) {
	return PlaceNewPartitions(brokers, 0, partitions, replicationFactor, startIndex, shift)
}

// PlaceNewPartitions places partitions firstPartition..firstPartition+count-1
// (AdminUtils.assignReplicasToBrokers with startPartitionId). Adding
// partitions to a topic uses firstPartition = the current count, the
// existing replication factor, and as start index (and shift) the index of
// the first broker whose id is ≥ partition 0's first replica.
func PlaceNewPartitions(brokers []BrokerRack, firstPartition, count, replicationFactor, startIndex, shift int) ([][]int, error) {
	ids, racked, err := checkBrokers(brokers)
	if err != nil {
		return nil, err
	}
	if firstPartition < 0 {
		return nil, fmt.Errorf("first partition must not be negative, got %d", firstPartition)
	}
	switch racked {
	case 0:
		if err := checkPlacement(len(ids), count, replicationFactor, startIndex, shift); err != nil {
			return nil, err
		}
		byIndex := placeUnaware(len(ids), firstPartition, count, replicationFactor, startIndex, shift)
		for _, replicas := range byIndex {
			for i, idx := range replicas {
				replicas[i] = ids[idx]
			}
		}
		return byIndex, nil
	case len(ids):
		return placeRackAware(brokers, firstPartition, count, replicationFactor, startIndex, shift)
	default:
		return nil, fmt.Errorf("not all brokers have rack information for replica rack aware assignment (%d of %d have a rack)", racked, len(ids))
	}
}

// checkBrokers returns the sorted broker ids and how many have a rack.
func checkBrokers(brokers []BrokerRack) ([]int, int, error) {
	if len(brokers) == 0 {
		return nil, 0, fmt.Errorf("brokers must be at least 1, got 0")
	}
	seen := map[int]bool{}
	ids := make([]int, 0, len(brokers))
	racked := 0
	for _, b := range brokers {
		if b.ID < 0 {
			return nil, 0, fmt.Errorf("broker id %d is negative", b.ID)
		}
		if seen[b.ID] {
			return nil, 0, fmt.Errorf("broker id %d is listed twice", b.ID)
		}
		seen[b.ID] = true
		ids = append(ids, b.ID)
		if b.Rack != "" {
			racked++
		}
	}
	sort.Ints(ids)
	return ids, racked, nil
}

// PlaceReplicasRackAware is AdminUtils.assignReplicasToBrokersRackAware: the
// rack-unaware walk over a rack-alternating broker list, where a follower is
// skipped while its rack already holds a replica and some rack holds none, or
// its broker already holds one and some broker holds none. Every broker must
// have a rack. (KRaft's controller places replicas with StripedReplicaPlacer
// instead; this is the ZooKeeper-era and admin-tool algorithm.)
func PlaceReplicasRackAware(brokers []BrokerRack, partitions, replicationFactor, startIndex, shift int) ([][]int, error) {
	return placeRackAware(brokers, 0, partitions, replicationFactor, startIndex, shift)
}

func placeRackAware(brokers []BrokerRack, firstPartition, partitions, replicationFactor, startIndex, shift int) ([][]int, error) {
	arranged, err := RackAlternatedBrokers(brokers)
	if err != nil {
		return nil, err
	}
	n := len(arranged)
	if err := checkPlacement(n, partitions, replicationFactor, startIndex, shift); err != nil {
		return nil, err
	}
	rackOf := make(map[int]string, n)
	for _, b := range brokers {
		rackOf[b.ID] = b.Rack
	}
	numRacks := len(racksOf(brokers))
	out := make([][]int, partitions)
	for i := range partitions {
		p := firstPartition + i
		if p > 0 && p%n == 0 {
			shift++
		}
		first := (p + startIndex) % n
		out[i] = rackAwareReplicas(arranged, rackOf, numRacks, first, shift, replicationFactor)
	}
	return out, nil
}

func rackAwareReplicas(arranged []int, rackOf map[int]string, numRacks, first, shift, rf int) []int {
	n := len(arranged)
	leader := arranged[first]
	replicas := []int{leader}
	racksUsed := map[string]bool{rackOf[leader]: true}
	brokersUsed := map[int]bool{leader: true}
	k := 0
	for len(replicas) < rf {
		broker := arranged[replicaIndex(first, shift*numRacks, k, n)]
		k++
		rack := rackOf[broker]
		if (!racksUsed[rack] || len(racksUsed) == numRacks) && (!brokersUsed[broker] || len(brokersUsed) == n) {
			replicas = append(replicas, broker)
			racksUsed[rack] = true
			brokersUsed[broker] = true
		}
	}
	return replicas
}

// RackAlternatedBrokers is AdminUtils.getRackAlternatedBrokerList: racks in
// Java string order, brokers in id order within a rack, taking one broker
// from each rack in turn. E.g. rack1:{0,5} rack2:{3,4} rack3:{1,2} →
// 0, 3, 1, 5, 4, 2.
func RackAlternatedBrokers(brokers []BrokerRack) ([]int, error) {
	ids, racked, err := checkBrokers(brokers)
	if err != nil {
		return nil, err
	}
	if racked != len(ids) {
		return nil, fmt.Errorf("not all brokers have rack information for replica rack aware assignment (%d of %d have a rack)", racked, len(ids))
	}
	byRack := map[string][]int{}
	for _, b := range brokers {
		byRack[b.Rack] = append(byRack[b.Rack], b.ID)
	}
	racks := racksOf(brokers)
	for _, r := range racks {
		sort.Ints(byRack[r])
	}
	out := make([]int, 0, len(ids))
	for i := 0; len(out) < len(ids); i = (i + 1) % len(racks) {
		if list := byRack[racks[i]]; len(list) > 0 {
			out = append(out, list[0])
			byRack[racks[i]] = list[1:]
		}
	}
	return out, nil
}

// racksOf lists the distinct racks in Java's String order.
func racksOf(brokers []BrokerRack) []string {
	set := map[string]bool{}
	for _, b := range brokers {
		set[b.Rack] = true
	}
	racks := make([]string, 0, len(set))
	for r := range set {
		racks = append(racks, r)
	}
	sort.Slice(racks, func(i, j int) bool { return JavaLess(racks[i], racks[j]) })
	return racks
}

// checkPlacement holds the argument checks both placements share.
func checkPlacement(brokers, partitions, replicationFactor, startIndex, shift int) error {
	switch {
	case partitions < 0:
		return fmt.Errorf("partitions must not be negative, got %d", partitions)
	case replicationFactor <= 0:
		return fmt.Errorf("replication factor must be at least 1, got %d", replicationFactor)
	case replicationFactor > brokers:
		return fmt.Errorf("replication factor %d is larger than the %d available brokers", replicationFactor, brokers)
	case startIndex < 0 || startIndex >= brokers:
		return fmt.Errorf("start index %d is outside 0..%d", startIndex, brokers-1)
	case shift < 0:
		return fmt.Errorf("shift must not be negative, got %d", shift)
	}
	return nil
}
