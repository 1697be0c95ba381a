// Package produce simulates the data path around a consumer group, in
// virtual time and deterministically from a seed: producers choosing
// partitions with Kafka's partitioners and filling per-partition batches
// (batch.size, linger.ms, a sender draining ready batches), log-end offsets
// growing as batches land, and the group's consumers reading their
// partitions at a rate, committing (auto every auto.commit.interval.ms,
// sync, or async), with committed offsets, lag, auto.offset.reset, and the
// records re-read after a rebalance counted as duplicates.
//
// The package does not decide who owns a partition: the group simulation
// (or a test) does, and tells it, at any virtual time:
//
//	sim := produce.NewSim(seed)
//	sim.AddTopic("orders", 6)
//	p, _ := sim.AddProducer(produce.ProducerConfig{Topic: "orders", Rate: 5000, Keys: produce.Keys{Kind: produce.KeysUniform, Count: 100}})
//	g := sim.Group("billing")
//	g.Join("c0", produce.ConsumerConfig{Rate: 2000})
//	g.Own("c0", []strategies.TopicPartition{{Topic: "orders", Partition: 0}, ...})
//	sim.Advance(1000)                          // one virtual second
//	g.Release("c0", tps, produce.Revoked)      // a rebalance takes them away
//	g.Own("c1", tps)                           // and gives them to c1
//	v := g.Partition("orders", 0)              // committed, lag, duplicates
//
// or, with a whole assignment at once (partition → member):
//
//	g.SetOwners(owners, func(member string) produce.Handover { ... })
//
// Own starts a member at the group's committed offset, or by its
// auto.offset.reset when there is none. Release with Revoked commits first
// (auto-commit in onJoinPrepare, or a commitSync in onPartitionsRevoked);
// with Lost (crash, session timeout, poll timeout) nothing is committed, so
// the next owner re-reads what was processed since the last commit — those
// re-reads are the duplicates. SetLeaders ties partitions to brokers
// (model/cluster): batches for a partition without a leader wait.
//
// Within one virtual millisecond the order is: producers send, the sender
// drains, consumers read, commits happen.
//
// Advance gives the result of walking every millisecond over every
// partition, but does less: the sender looks only at partitions with queued
// batches, consumers only at partitions with records to read, the
// partitioner gets load stats only when they changed and a keyless record
// needs them, and stretches where nothing is due (no record, no batch past
// linger.ms, no read, no commit) are jumped in one go (quiet.go).
// fastpath_test.go keeps the plain walk as the oracle.
package produce
