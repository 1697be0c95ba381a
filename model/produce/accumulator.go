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
	stats      loadTable
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
	a.statsDirty, a.stats.built = true, false
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
	a.stats.lenDirty.set(p)
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
// as Kafka's drain does. leaders[p] is -1 for a partition without leader
// (its batches wait). A stalled broker is ready but cannot take data (its
// in-flight requests are stuck), which only moves its ready time on, as the
// Sender does. ready is scratch space: the ready brokers and the bytes
// drained to each (a handful of brokers, so a list beats a map).
func (a *accumulator) drainReady(nowMs, lingerMs int64, leaders []int, stalled func(b int) bool, ready *readyList, sent func(p int, b *batch, why SendReason)) {
	ready.reset()
	for p := a.nonEmpty.next(0); p >= 0; p = a.nonEmpty.next(p + 1) {
		q := &a.queues[p]
		b := q.first()
		leader := leaders[p]
		if leader < 0 {
			continue
		}
		if q.len() > 1 || b.full() || nowMs-b.createdMs >= lingerMs {
			ready.add(leader)
		}
	}
	if len(ready.brokers) == 0 {
		return
	}
	a.statsDirty, a.stats.nodesMoved = true, true // the brokers' ready and drain times move
	for i, b := range ready.brokers {
		n := a.nodes[b]
		if n == nil {
			n = &nodeLatency{readyMs: nowMs, drainMs: nowMs}
			a.nodes[b] = n
		}
		n.readyMs = nowMs
		if stalled(b) {
			ready.used[i] = -1 // ready, but takes nothing
			continue
		}
		n.drainMs = nowMs
	}
	for p := a.nonEmpty.next(0); p >= 0; p = a.nonEmpty.next(p + 1) {
		q := &a.queues[p]
		b := q.first()
		leader := leaders[p]
		if leader < 0 {
			continue
		}
		i := ready.index(leader)
		if i < 0 {
			continue
		}
		used := ready.used[i]
		if used < 0 || (used > 0 && used+b.bytes > maxRequestSize) {
			continue
		}
		ready.used[i] = used + b.bytes
		why := sendReason(b, nowMs, lingerMs) // before pop: a full one may have a batch behind it
		q.pop()
		a.stats.lenDirty.set(p)
		if q.len() == 0 {
			a.nonEmpty.clear(p)
		}
		sent(p, b, why)
		a.spare = append(a.spare, b)
	}
}

// readyList is the brokers a drain found ready, with the bytes drained to
// each so far (-1: stalled, takes nothing).
type readyList struct {
	brokers []int
	used    []int
}

func (r *readyList) reset() { r.brokers, r.used = r.brokers[:0], r.used[:0] }

func (r *readyList) index(b int) int {
	for i, x := range r.brokers {
		if x == b {
			return i
		}
	}
	return -1
}

func (r *readyList) add(b int) {
	if r.index(b) < 0 {
		r.brokers = append(r.brokers, b)
		r.used = append(r.used, 0)
	}
}

// loadStats fills sizes/ids as RecordAccumulator.partitionReady does: one
// slot per partition; first the queue sizes (in batches) of partitions with
// a leader whose broker has not kept data waiting longer than
// availabilityMs (0 = off), then unused slots. It returns how many slots
// count, and false until every partition has a deque (Kafka's condition).
// Between changes of who counts (leaders, deques, brokers' latencies) only
// the queues whose length changed are rewritten.
func (a *accumulator) loadStats(leaders []int, availabilityMs int64, leadersChanged bool) ([]int, []int, int, bool) {
	st := &a.stats
	if a.unseen > 0 {
		st.built = false
		return nil, nil, 0, false
	}
	if !st.built || leadersChanged || (availabilityMs > 0 && st.nodesMoved) {
		a.rebuildStats(leaders, availabilityMs)
	} else {
		for p := st.lenDirty.next(0); p >= 0; p = st.lenDirty.next(p + 1) {
			if i := st.pos[p]; i >= 0 {
				st.sizes[i] = a.queues[p].len()
			}
		}
	}
	st.lenDirty.reset()
	st.nodesMoved = false
	return st.sizes, st.ids, st.length, true
}

func (a *accumulator) rebuildStats(leaders []int, availabilityMs int64) {
	st := &a.stats
	n := len(a.queues)
	if cap(st.sizes) < n {
		st.sizes, st.ids, st.pos = make([]int, n), make([]int, n), make([]int, n)
	}
	st.sizes, st.ids, st.pos = st.sizes[:n], st.ids[:n], st.pos[:n]
	clear(st.sizes)
	clear(st.ids)
	st.length = 0
	for p := range a.queues {
		st.pos[p] = -1
		leader := leaders[p]
		if leader < 0 {
			continue
		}
		if node := a.nodes[leader]; availabilityMs > 0 && node != nil && node.readyMs-node.drainMs > availabilityMs {
			continue
		}
		st.sizes[st.length], st.ids[st.length], st.pos[p] = a.queues[p].len(), p, st.length
		st.length++
	}
	st.built = true
}

// loadTable is the load stats loadStats keeps between drains.
type loadTable struct {
	sizes, ids []int
	pos        []int // partition → slot, -1 = not counted
	length     int
	built      bool
	lenDirty   bitset // partitions whose queue length changed since
	nodesMoved bool   // brokers' ready or drain times changed since
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
