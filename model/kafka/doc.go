// Package kafka is the vocabulary kviz's engine, its file format and its
// faces share: Kafka's step kinds (the protocol's requests, responses and
// callbacks), group and member states, the group protocols and which
// assignor runs under which, topic-partitions and their sets, and the
// words of a rebalance's result (Move, Owners, Diff, Assignment).
package kafka
