// Package model simulates a Kafka consumer group and its coordinator one
// protocol step at a time, on a virtual clock: the classic protocol (eager
// and cooperative, static membership) and the KIP-848 consumer protocol. It
// is pure and deterministic: the same scenario always gives the same trace.
// The lab (tui/) draws its views; `kviz simulate` prints its steps.
//
// One model, two faces. Every number a screen shows is a function here, and
// a command prints the same function's answer:
//
//	scenario file ──scenario.Parse──▶ Scenario ──WithStrategy──▶ Scenario (another assignor/protocol)
//	     │                              │
//	     │                         Simulate / Insert
//	     ▼                              ▼
//	scenario.CheckEvent (one rule for        Sim: steps, View(i) ──▶ lab grid, header, panes (tui/)
//	timeline and inserted events)   │                    ──▶ kviz simulate
//	                                ├─ Rebalances(): rounds, moves, gaps ──▶ numbers pane, ] [
//	                                ├─ Forecast(ev) ─▶ Outcome ──▶ what-if panel (w), kviz whatif
//	                                └─ Compare(sc, …) ─▶ []CompareRow{Outcome} ──▶ compare mode (c), kviz compare
//
// The words those share: a Move is a partition whose consumer differs
// between two moments (Diff); "moved" counts the moves that took a
// partition from a member (Taken), so a first assignment is a move but not
// moved. A Round is one generation of a rebalance (KIP-848: one group
// epoch): a cooperative dance that moves a partition has two. An Outcome
// runs from a moment until the group is settled again — the end of the
// rebalance the moment started or joined, with the outage that led into it
// (a crashed member's session timeout) — or until the run ends (Settled is
// then false); an event that starts no rebalance before the next scripted
// one settles when any outage it caused is over. Gaps are per partition,
// summed over the records the outcome spans.
//
// Choices the simulation makes, where Kafka leaves room or a picture needs one:
//
//   - Kafka version: the classic coordinator is Kafka 4.0's (GroupMetadataManager
//     and ClassicGroup): e.g. the initial rebalance delay applies to every
//     rebalance that starts from Empty, and "the next member" is taken in
//     java.util.HashMap order of member ids. Clients are 4.0's.
//   - Ids: members are shown by their scenario (client) id, c1. The
//     coordinator-made member.id is client.id (or group.instance.id) + "-" + 8
//     hex digits from the scenario's seed (Kafka uses a random UUID); it is in
//     MemberView.MemberID and in the JoinGroup steps, and it is what assignors
//     sort and hash, as in Kafka. Under KIP-848 the client makes it (KIP-1082).
//   - Time: every request and response takes 2 ms; the application polls
//     continuously unless a stall says otherwise; FindCoordinator asks the
//     lowest live broker.
//   - Zombies: when the coordinator removes a member whose process still runs
//     (a stalled consumer, a lost heartbeat), or the process resets its
//     generation, its partitions stop counting as owned at once, though the
//     process only calls onPartitionsLost at its next poll(). Step.Owned is
//     what the group validly consumes.
//   - Partition growth: only the classic leader watches partition counts; it
//     notices at its next metadata refresh (metadata.max.age.ms, 300000 ms,
//     counted from its start). It also assigns with the metadata it has
//     (classic_metadata.go): partitions added during a rebalance wait for
//     that refresh, unless the group subscribes to a topic the leader does
//     not, which makes it fetch fresh metadata first (updateGroupSubscription). The KIP-848 coordinator bumps the group epoch
//     at the next heartbeat after the change.
//   - Topics that do not exist: a member (at start, on a join or in a
//     subscribe) may name a topic the scenario does not have, as a real
//     consumer may subscribe to a deleted or never-created topic. Kafka takes
//     it: the classic leader's assignor gets no metadata for it
//     (AbstractPartitionAssignor skips it), the KIP-848 coordinator resolves
//     only names in its metadata image (TopicIds) though the name still
//     counts when it judges subscriptions homogeneous. Nothing of it is
//     assigned, and the MemberStarted or SubscriptionChanged step says so.
//     A classic given start may have a member own partitions of such a
//     topic it subscribes to (deleted before time 0): the leader's
//     assignmentSnapshot still counts it, so its first metadata refresh
//     (metadata.max.age.ms; a fetch error could make it sooner, which is
//     not modelled) rejoins; the assignors ignore the partitions and the
//     owner revokes them (cooperative: owned minus assigned, then a
//     follow-up round). Under KIP-848 ConsumerGroupDescribe drops a deleted
//     topic's partitions, so a given start cannot hold them.
//     The topic is never auto-created (as with auto.create.topics.enable=false,
//     the usual production setting; Kafka's default would create it with
//     num.partitions partitions at the consumer's first metadata request).
//   - Kafka versions: group.kafka_version (default: the newest release kviz
//     models whole, strategies.LatestClientVersion, 4.1) selects the behaviour
//     of that release, with the same version notion as the producers'
//     kafka_version (strategies/versions.go lists every change; 4.2 and 4.3
//     are accepted too, a later release is refused). Assignors: before 3.5 the client assignors ignore
//     racks (KIP-881); at 4.0 the uniform homogeneous builder gives the extra
//     partitions to the first members in order (4.1: any member keeps its
//     extra, KAFKA-18688); the server-side assignors are modelled from 4.0
//     (KIP-848 GA) on. Consumer protocol, by release: 4.0 as in apache/kafka
//     1eb7644 (GroupMetadataManager, CurrentAssignmentBuilder) for epochs,
//     reconciliation, fencing and states; 4.1 and 4.2 the same (kviz found no
//     change it models in 4.2); 4.3 batches target computations (KAFKA-20291,
//     KIP-1263: consumer_batching.go), starts a new group at epoch 1
//     (KAFKA-20268) and validates commits by assignment epoch (KIP-1251,
//     KAFKA-20066: consumer_commit.go). 4.3 runs the assignor on a background
//     thread by default (group.consumer.assignor.offload.enable, KIP-1263);
//     kviz computes it inside the heartbeat, as with offload disabled, which
//     is why 4.3 is not the default. The classic protocol is 4.0's in every
//     release.
//   - Brokers: the leaders of __consumer_offsets come from Kafka's
//     rack-unaware placement with a replication factor of min(3, brokers), the
//     start index and shift drawn from the seed; one cluster model
//     (model/cluster) holds them and the scenario's topics. A failed broker's
//     partitions move to their next live in-sync replica; a recovered broker
//     becomes a follower (preferred-leader elections are not simulated)
//     unless it was a leaderless partition's last in-sync replica (unclean
//     election is off, as by default).
//   - KIP-848 epochs and states: Kafka handles a heartbeat in one batch of
//     records, so no one observes its middle; kviz shows it as steps (the
//     group-epoch bump, AssignmentComputed, the member's reconciliation)
//     and labels every step with the state Kafka's rule gives for what the
//     step shows (ConsumerGroup.maybeUpdateGroupState, 4.0 on: EMPTY,
//     ASSIGNING while the group epoch is ahead of the assignment epoch,
//     RECONCILING while a member is not STABLE at it, STABLE), so a bump
//     shows ASSIGNING and a fresh target RECONCILING until the member catches
//     up. A joining member is the exception (issue 23): Kafka decides its
//     epoch and state (CurrentAssignmentBuilder) in the same batch as the
//     bump and the target, so the join's bump step already shows the new
//     assignment epoch and the joiner as written, never at epoch 0; only a
//     target that waits (4.3) leaves a join ASSIGNING. One heartbeat bumps
//     the group epoch at most once, for a changed subscription and a
//     changed partition count together. A GroupStateChanged step tells only
//     of a change no other step showed. A fenced or leaving member bumps the epoch alone
//     (consumerGroupFenceMember, 4.0 on); the target waits for the next
//     heartbeat, and the group is ASSIGNING until then. Target computation,
//     by release: 4.0-4.2 run the assignor on every heartbeat that finds the
//     group epoch ahead (a target per bump). 4.3 (KAFKA-20291) runs it at most
//     once per group.assignment_interval_ms (the group config
//     consumer.assignment.interval.ms over the broker's
//     group.consumer.assignment.interval.ms, default 1000, bounds 0-15000;
//     0 is 4.0's behaviour): a heartbeat inside the interval gets the last
//     target (a joiner reconciles to it, STABLE at its epoch with nothing),
//     a RebalanceDelayed step says so once per group epoch, and the first
//     heartbeat of any member after the interval computes the target for
//     every bump since. Kafka sets no timer for it, and neither does kviz:
//     the group is ASSIGNING, so not settled, until that heartbeat. The
//     time of the last target survives a coordinator move (kviz's choice).
//     A 4.3 group starts at group and assignment epoch 1 with an empty
//     target, so the first target is epoch 2 (KAFKA-20268). Commits: a
//     member's commit must carry its epoch (4.0-4.2; else
//     STALE_MEMBER_EPOCH); from 4.3 an older epoch is accepted when every
//     partition it commits was assigned to the member at or before that
//     epoch (KIP-1251 assignment epochs, kept per held partition; kviz
//     answers the whole commit, Kafka each partition).
//   - KIP-848 trace: JSONL under the consumer protocol carries
//     assignment_epoch, member_epochs, member_states and target, so a step's
//     group state follows from the step alone. Members are keyed by client
//     id; a member the coordinator still holds after its process restarted
//     (a dynamic consumer's old self until its session expires, a static one
//     away at epoch -2 or crashed until it is replaced or expires) is keyed
//     by its member id, the same in all three maps.
//   - KIP-848 client: heartbeats are an interval apart send to send (the
//     timer restarts when one is sent); the interval starts at 0 and the
//     first answer sets it, so the first routine heartbeat after a process
//     joins comes an interval after that answer. A member heartbeats early
//     only to join, to acknowledge a reconciliation (also of an empty first
//     assignment: onPartitionsAssigned([]) runs) and to leave. subscribe()
//     runs no callback: the new subscription rides the next regular
//     heartbeat, and the member consumes what it owns until the coordinator's
//     answer takes it away. Callbacks run at once unless poll() is stalled,
//     then at the next poll (kviz runs them inside the step that triggers
//     them; Kafka runs them whenever the application next polls).
//   - KIP-848 rebalance timeout: a member asked to revoke is fenced if it is
//     still at that epoch max.poll.interval.ms later (the rebalance timeout
//     it sent at its join, a member's own); a static member
//     leaving with epoch -2 drops what it had to revoke, so nothing fences
//     it for that.
//   - Classic corners (Kafka 4.x's GroupMetadataManager, checked against
//     confluentinc/kafka 4.1): a new member's parked JoinGroup is held at
//     most CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS (5 min), then answered
//     UNKNOWN_MEMBER_ID; a member with a parked JoinGroup or SyncGroup
//     satisfies its heartbeat deadline without a new one, and completing
//     the join re-arms every member's deadline, a static member kept
//     without rejoining too; an expiry (not a LeaveGroup) ends a join
//     phase in which everyone left has joined, an initial one included. A
//     member the coordinator removed that has not heard of it still holds
//     its generation and partitions: under eager its next rejoin revokes
//     them all, and the UNKNOWN_MEMBER_ID answer makes it run onJoinPrepare
//     again (needsJoinPrepare), reporting what it still held as lost.
//     Heartbeat answers to a generation the member has left are ignored
//     (HeartbeatResponseHandler.generationUnchanged); no heartbeat goes out
//     while a JoinGroup is pending. When the default rebalance timeout and
//     the new-member join timeout are both 300000 ms, a new member's join
//     expires at the very millisecond the join phase ends, before it (its
//     timer was set first, as in Kafka's timer), so a rebalance that waits
//     the full timeout for a member that never rejoins leaves the newcomer
//     out.
//   - Per member (issue 23): session.timeout.ms, heartbeat.interval.ms
//     and max.poll.interval.ms are a member's own and travel in its
//     JoinGroup; the join phase waits the largest rebalance timeout, each
//     session its own length (KIP-848: the broker's, the rebalance timeout
//     the member's). Quiet stretches jump whole cycles of the least common
//     multiple of the intervals. group.max_size answers GROUP_MAX_SIZE_REACHED
//     (fatal to the joiner); session_timeout_check: coordinator lets the
//     coordinator answer INVALID_SESSION_TIMEOUT (fatal) rather than refusing
//     the file. remove_members is an administrator's LeaveGroup by instance
//     id (or, for all, by each member id DescribeGroups lists): one
//     rebalance (KIP-848: one epoch bump); the removed consumers learn it
//     from their next answer. disconnect cuts one consumer off from every
//     broker while it runs: kviz fails each request at once, as a refused
//     connection would (a silent drop would wait request.timeout.ms), the
//     FindCoordinator retries back off to 1 s and are not a routine cycle.
//     wakeup() throws WakeupException from poll(); the join in flight goes
//     on. A listener's callback may take time (the application thread does
//     not poll; the heartbeat thread goes on; a revocation is done and a
//     classic JoinGroup sent only when onPartitionsRevoked returns; KIP-848
//     acknowledges after both callbacks) or throw (the step completes,
//     poll() throws, the application polls again). rejoin_commit_ms models
//     onJoinPrepare's auto-commit: the member commits, waits for the answer
//     (retrying a retriable failure until its rebalance timeout), then
//     revokes and rejoins; without it kviz leaves commits to the data path.
//   - Online migration (KIP-848, issue 23; migration.go, consumer_classic.go):
//     a member's protocol (classic or consumer) may differ from the group's.
//     The first consumer-protocol heartbeat converts a non-empty classic
//     group into a consumer group (group.migration_policy bidirectional or
//     upgrade; else GROUP_ID_NOT_FOUND, fatal), at group epoch = the
//     generation with the members' last assignments as their targets;
//     classic members keep the classic protocol against the consumer
//     coordinator (JoinGroup answered at once, generation = member epoch,
//     no leader; SyncGroup the assignment; REBALANCE_IN_PROGRESS when the
//     group epoch is ahead, partitions must be revoked, or awaited ones are
//     free; join and sync deadlines of a rebalance timeout). When a fence
//     leaves only classic members (policy bidirectional or downgrade), or
//     a classic static member takes the last consumer-protocol member's
//     slot, the group becomes a classic group, Stable at generation = the
//     group epoch, targets as assignments, the first member in map order
//     leading, then rebalances (the slot case only if the subscription
//     changed). An empty group of either kind is dropped and made anew by
//     a joiner of the other kind, from generation (epoch) 0. The server
//     assignor of a classic scenario's upgraded group is uniform (the first
//     of group.consumer.assignors). restart: {id, protocol} is a rolling
//     bounce: the process closes as leave does and starts with the other
//     protocol. Kafka-faithful consequences kviz shows: a group upgraded
//     while its members hold no assignment (its first generation, or after
//     a rebalance interrupted in CompletingRebalance emptied them) keeps
//     those empty targets until the next epoch bump; a slot downgrade
//     starts no rebalance and the new leader does not know it leads.
//     Kafka's refusal of an assignor's assignment userData cannot arise:
//     kviz's assignors carry none. kviz's one departure: an upgraded
//     member keeps only partitions of topics it subscribes to (one that
//     changed its subscription in the rebalance the upgrade interrupted
//     would, in Kafka, be STABLE at the target epoch with an assignment
//     its classic client refuses, and rejoin forever).
//   - Quiet: a run ends when the timeline is done and only routine heartbeats
//     remain, or when no broker can coordinate the group. Between events a
//     settled group's heartbeats are jumped, whole cycles at a time, and
//     shown as one routine QuietStretch step (quiet.go: why the jump is
//     exact); cost grows with events, not with virtual time. Timeouts,
//     metadata refreshes and scripted events keep their exact millisecond.
//   - Rebalances and outages (Sim.Rebalances, Sim.Outages): a classic
//     rebalance runs from the first join phase or eager revocation to Stable
//     at a later generation with nobody rejoining or waiting for a withheld
//     partition, so a cooperative dance is one rebalance; a KIP-848 one from
//     a group-epoch bump to STABLE with every member holding its target. Time
//     a subscribed partition has no consumer outside any rebalance (a dead
//     member before its session expires, a static restart in time) is an
//     outage, not a rebalance.
//
// Scenario files follow issue 3's format, with two additions: a member (or a
// join) may list its own assignors, `strategies: [range, cooperative-sticky]`
// (its rebalance protocol and the assignor vote follow from the lists), and
// a commit may carry the generation it was made with,
// `commit: {id: c1, generation: 1}`, as an application holding stale group
// metadata would. A join of a stopped member starts it again with the join's
// settings (a rolling bounce).
//
// A given start (parse_given.go, given.go): `group: {generation: 5}`
// (classic) or `group: {group_epoch: 5}` (KIP-848) with members carrying
// `owned: {t0: [0, 1]}` (and optionally `member_id: c1-3f0a9d12`, the id a
// real group's member holds: assignors sort and hash it) means the group is
// already Stable (STABLE) at time 0: every member runs, knows the
// coordinator, holds the generation (member epoch) and a member id
// (coordinator-made as above unless given), consumes what it owns and
// heartbeats every heartbeat.interval.ms from time 0. Classic: the first
// member leads, the assignor is the members' vote, the state is stored (a
// failover restores it), and the next JoinGroup carries the owned
// partitions with the given generation and sticky's userData as the last
// assignment. KIP-848: the assignment epoch and every member epoch equal the
// group epoch and the targets are what the members own. Owned partitions
// without a generation start at generation 1; a generation without members
// is an Empty group at that generation. Nothing before time 0 is replayed:
// step 0 shows the given state. Rejected, with the line: a partition owned
// twice, one that does not exist, an owned topic the member does not
// subscribe to, owned or member_id on a timeline join, generation under
// KIP-848 and group_epoch under the classic protocol, and classic members
// that share no assignor (no generation could be Stable with them).
// scenario.Format writes a scenario back in the format (format.go).
//
// Scenario metadata: `examples: [7]` names the worked examples of
// SEED-EXAMPLES.md a scenario shows (`kviz demos` lists them), and
// `lab: {open: compare}` asks the lab to open with compare ready
// (Scenario.Open).
//
// The data path (flow.go, parse_producers.go): a scenario may add
// `producers:` (topic, rate, keys: null | [k1, k2] | {uniform: N} |
// {hot: K, share: 0.6, count: N}, partitioner, kafka_version, batch_size,
// linger_ms), consumer settings on the group or a member (rate: records/s
// each member processes, enable_auto_commit, auto_commit_interval_ms,
// commit: sync|async, auto_offset_reset) and timeline entries
// `produce: {topic, key, count}`, and other groups reading the same topics,
// `readers: [{group: B, topics: [t0], at_ms: 30000, auto_offset_reset:
// earliest}]` (plus the consumer keys): each is one consumer that gets every
// partition of its topics at at_ms (a grown topic's new ones at once) and
// reads from its group's own committed offsets, or from auto_offset_reset
// without any. Only a reader's offsets are modelled, not its protocol: it
// adds no step, and the simulated group never sees it. FlowView.Readers and
// Step.Readers (JSONL "readers": records read by topic and partition) show it.
// A producer's accumulator is in ProducerView too: batch.size and linger.ms
// in force, each partition's waiting batches (bytes, age, linger left) and
// the sender's latest batch with its reason (produce.SendReason: full,
// linger, or drained because its leader was ready for another partition).
// Then, after the group is simulated, model/produce replays its steps in
// virtual time: partitions change hands as Step.Owned does (revoked ones
// commit first; a crashed, fenced, stalled or removed member's are lost, so
// its successor re-reads: duplicates), fail_broker and recover_broker move
// the data topics' leaders (placed with replication factor min(3, brokers),
// start index and shift from the seed), add_partitions grows them. The group
// never depends on the data path, so its trace is the same with or without
// producers; GroupView.Flow() and Step.Lag (JSONL "lag") exist only with them,
// and the data path is replayed on demand, up to the step asked for.
// A stalled member reads and commits nothing until its stall ends (a
// consumer committing async still lands the commits already sent). The
// data path runs only as long as the group's trace does.
//
// Issue 23 adds member keys session_timeout_ms, heartbeat_interval_ms,
// max_poll_interval_ms, protocol, listener {revoked_ms, assigned_ms,
// lost_ms, throws} and rejoin_commit_ms; group keys max_size,
// session_timeout_check and migration_policy; and timeline actions
// remove_members ({instances: [...]} or all), disconnect {id, ms}, wakeup
// and restart {id, protocol} (member_settings.go in model/scenario).
//
// Step kinds beyond Kafka's request and callback names: MemberStopped,
// PollStalled, PollResumed, SubscriptionChanged, CommitFailed (a commit the
// client refuses before sending), MetadataRefreshed, AssignmentComputed,
// MemberRemoved, MemberReplaced, StaticMemberKept, RebalanceDelayed,
// CreatePartitions, NetworkCut, NetworkRestored, PollInterrupted,
// CallbackReturned, GroupConverted and QuietStretch (routine: the heartbeats, or
// FindCoordinator retries, of a jumped stretch; quiet.go). Every kind, group state and member state is a typed
// constant in words.go (StepKind, GroupState, MemberState).
package model
