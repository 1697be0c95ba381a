// Package model simulates a Kafka consumer group and its coordinator one
// protocol step at a time, on a virtual clock: the classic protocol (eager
// and cooperative, static membership) and the KIP-848 consumer protocol. It
// is pure and deterministic: the same scenario always gives the same trace.
// The lab (tui/) draws its views; `kviz simulate` prints its steps.
//
// The engine answers every question a screen asks (Sim: steps and views;
// Rebalances, Outages, Forecast, Compare, Quiz) from a scenario that
// package model/scenario parses, in the words of package model/kafka.
// DESIGN.md, at the repository's root, says what it chooses where Kafka
// leaves room, with the Kafka sources it follows.
package model
