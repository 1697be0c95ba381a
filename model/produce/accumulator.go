package produce

import "github.com/kvizlab/kviz/strategies"

// batch is one producer batch (ProducerBatch over a MemoryRecordsBuilder).
type batch struct {
	records    int
	bytes      int // estimatedBytesWritten: header + records
	writeLimit int
	createdMs  int64
	baseTs     int64
	closed     bool // closeForRecordAppends
}

func (b *batch) full() bool {
	return b.closed || (b.records > 0 && b.writeLimit <= b.bytes)
}

// hasRoomFor is MemoryRecordsBuilder.hasRoomFor: the first record always fits.
func (b *batch) hasRoomFor(nowMs int64, keyLen, valueLen int) bool {
	if b.full() {
		return false
	}
	if b.records == 0 {
		return true
	}
	return b.writeLimit >= b.bytes+recordSize(b.records, nowMs-b.baseTs, keyLen, valueLen)
}

// queue is one partition's deque of batches, oldest first.
type queue struct {
	batches []*batch
	head    int
	seen    bool // a deque exists (RecordAccumulator creates one on first use)
}

func (q *queue) len() int { return len(q.batches) - q.head }

func (q *queue) last() *batch {
	if q.len() == 0 {
		return nil
	}
	return q.batches[len(q.batches)-1]
}

func (q *queue) first() *batch {
	if q.len() == 0 {
		return nil
	}
	return q.batches[q.head]
}

func (q *queue) pop() *batch {
	b := q.batches[q.head]
	q.batches[q.head] = nil
	q.head++
	if q.head == len(q.batches) {
		q.batches, q.head = q.batches[:0], 0
	}
	return b
}

// accumulator is one producer's RecordAccumulator for one topic. It is the
// strategies.Batches the partitioner consults.
type accumulator struct {
	queues    []queue
	batchSize int
	// The record being sent, so CloseIfNoRoom can size it.
	nowMs            int64
	keyLen, valueLen int
	spare            []*batch // drained batches, reused: no garbage per batch
	// nodes is RecordAccumulator.nodeStats: when each broker last had data
	// ready and last could take it (partitioner.availability.timeout.ms).
	nodes map[int]*nodeLatency

	// The fast path: nonEmpty holds the partitions with queued batches;
	// unseen counts deques not created yet; statsDirty says the load stats
	// the partitioner last got may be out of date (a queue's length, a
	// deque, a leader or a broker's latency changed).
	nonEmpty   bitset
	unseen     int
	statsDirty bool
}

// see marks p's deque as created.
func (a *accumulator) see(q *queue) {
	if !q.seen {
		q.seen = true
		a.unseen--
		a.statsDirty = true
	}
}

// grow adds partitions (a topic grew).
func (a *accumulator) grow(n int) {
	a.queues = append(a.queues, make([]queue, n)...)
	a.unseen += n
	a.nonEmpty.grow(len(a.queues))
	a.statsDirty = true
}

type nodeLatency struct{ readyMs, drainMs int64 }

var _ strategies.Batches = (*accumulator)(nil)

func newAccumulator(partitions, batchSize int) *accumulator {
	a := &accumulator{queues: make([]queue, partitions), batchSize: batchSize, nodes: map[int]*nodeLatency{},
		unseen: partitions, statsDirty: true}
	a.nonEmpty.grow(partitions)
	return a
}

// CloseIfNoRoom is tryAppend's failure path: no open batch with room.
func (a *accumulator) CloseIfNoRoom(p int, _ strategies.ProducerRecord) bool {
	q := &a.queues[p]
	a.see(q)
	last := q.last()
	if last == nil {
		return true
	}
	if last.hasRoomFor(a.nowMs, a.keyLen, a.valueLen) {
		return false
	}
	last.closed = true
	return true
}

// AllBatchesFull is RecordAccumulator.allBatchesFull.
func (a *accumulator) AllBatchesFull(p int) bool {
	last := a.queues[p].last()
	return last == nil || last.full()
}

// append adds the current record to p and returns the bytes it added (a new
// batch counts its header) — RecordAccumulator.tryAppend / appendNewBatch.
func (a *accumulator) append(p int) int {
	q := &a.queues[p]
	a.see(q)
	if last := q.last(); last != nil {
		if last.hasRoomFor(a.nowMs, a.keyLen, a.valueLen) {
			size := recordSize(last.records, a.nowMs-last.baseTs, a.keyLen, a.valueLen)
			last.records++
			last.bytes += size
			return size
		}
		last.closed = true
	}
	b := a.newBatch()
	b.writeLimit = bufferSize(a.batchSize, a.keyLen, a.valueLen)
	b.createdMs, b.baseTs = a.nowMs, a.nowMs
	size := recordSize(0, 0, a.keyLen, a.valueLen)
	b.records, b.bytes = 1, batchOverhead+size
	q.batches = append(q.batches, b)
	a.nonEmpty.set(p)
	a.statsDirty = true // a queue is one batch longer
	return b.bytes
}

func (a *accumulator) newBatch() *batch {
	if n := len(a.spare); n > 0 {
		b := a.spare[n-1]
		a.spare = a.spare[:n-1]
		*b = batch{}
		return b
	}
	return &batch{}
}

// maxRequestSize is max.request.size: a drain takes at most this many bytes
// per broker (the first batch always goes).
const maxRequestSize = 1 << 20

// drainReady is the sender: RecordAccumulator.ready, then drain. A broker is
// ready when one of its partitions' first batch is sendable (full, more
// batches behind it, or linger.ms passed); then the first batch of *every*
// partition it leads is drained, lingering or not, up to max.request.size —
// as Kafka's drain does. leaderOf returns -1 for a partition without leader
// (its batches wait). A stalled broker is ready but cannot take data (its
// in-flight requests are stuck), which only moves its ready time on, as the
// Sender does. ready is scratch space indexed by broker id.
func (a *accumulator) drainReady(nowMs, lingerMs int64, leaderOf func(p int) int, stalled func(b int) bool, ready map[int]int, sent func(p, records int)) {
	if len(ready) > 0 {
		clear(ready)
	}
	for p := a.nonEmpty.next(0); p >= 0; p = a.nonEmpty.next(p + 1) {
		q := &a.queues[p]
		b := q.first()
		leader := leaderOf(p)
		if leader < 0 {
			continue
		}
		if q.len() > 1 || b.full() || nowMs-b.createdMs >= lingerMs {
			ready[leader] = 0
		}
	}
	if len(ready) == 0 {
		return
	}
	a.statsDirty = true // the brokers' ready and drain times move
	for b := range ready {
		n := a.nodes[b]
		if n == nil {
			n = &nodeLatency{readyMs: nowMs, drainMs: nowMs}
			a.nodes[b] = n
		}
		n.readyMs = nowMs
		if stalled(b) {
			delete(ready, b)
			continue
		}
		n.drainMs = nowMs
	}
	for p := a.nonEmpty.next(0); p >= 0; p = a.nonEmpty.next(p + 1) {
		q := &a.queues[p]
		b := q.first()
		leader := leaderOf(p)
		used, ok := ready[leader]
		if leader < 0 || !ok || (used > 0 && used+b.bytes > maxRequestSize) {
			continue
		}
		ready[leader] = used + b.bytes
		q.pop()
		if q.len() == 0 {
			a.nonEmpty.clear(p)
		}
		sent(p, b.records)
		a.spare = append(a.spare, b)
	}
}

// loadStats fills sizes/ids as RecordAccumulator.partitionReady does: one
// slot per partition; first the queue sizes (in batches) of partitions with
// a leader whose broker has not kept data waiting longer than
// availabilityMs (0 = off), then unused slots. It returns how many slots
// count, and false until every partition has a deque (Kafka's condition).
func (a *accumulator) loadStats(leaderOf func(p int) int, availabilityMs int64, sizes, ids []int) ([]int, []int, int, bool) {
	if a.unseen > 0 {
		return nil, nil, 0, false
	}
	n := len(a.queues)
	if cap(sizes) < n {
		sizes, ids = make([]int, n), make([]int, n)
	}
	sizes, ids = sizes[:n], ids[:n]
	clear(sizes)
	clear(ids)
	length := 0
	for p := range a.queues {
		leader := leaderOf(p)
		if leader < 0 {
			continue
		}
		if node := a.nodes[leader]; availabilityMs > 0 && node != nil && node.readyMs-node.drainMs > availabilityMs {
			continue
		}
		sizes[length], ids[length] = a.queues[p].len(), p
		length++
	}
	return sizes, ids, length, true
}

// queued is how many records wait in p's batches.
func (a *accumulator) queued(p int) int {
	q := &a.queues[p]
	n := 0
	for _, b := range q.batches[q.head:] {
		n += b.records
	}
	return n
}
