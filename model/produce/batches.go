package produce

// The accumulator as a picture: each partition's queue of batches, how
// full they are against batch.size, how long they have lingered, and why
// the sender took the last one (issue 10's example 17).

// SendReason is why the sender took a batch (RecordAccumulator.ready and
// drain).
type SendReason string

const (
	// SentFull: the batch reached batch.size, or the next record did not
	// fit and a new batch was started behind it.
	SentFull SendReason = "full"
	// SentLinger: it waited linger.ms (at once when linger.ms is 0).
	SentLinger SendReason = "linger"
	// SentWithBroker: neither, but its leader was ready for another
	// partition's batch, and drain takes the first batch of every
	// partition that broker leads.
	SentWithBroker SendReason = "drained with its broker"
)

// BatchView is one batch waiting in a partition's queue.
type BatchView struct {
	Records int
	Bytes   int   // estimated bytes written, record batch header included
	AgeMs   int64 // since its first record: linger.ms counts from here
	// LingerLeftMs is what remains of linger.ms (0: it may go now).
	LingerLeftMs int64
	Full         bool // closed for appends: it goes at the sender's next pass
}

// SentBatch is a batch the sender took.
type SentBatch struct {
	Partition      int
	Records, Bytes int
	AtMs           int64
	Why            SendReason
}

// BatchSize is the producer's batch.size.
func (p *Producer) BatchSize() int { return p.acc.batchSize }

// QueuedPartitions lists the partitions with batches waiting, ascending,
// at most limit of them (limit < 0: all); n counts them all.
func (p *Producer) QueuedPartitions(limit int) (parts []int, n int) {
	for i := p.acc.nonEmpty.next(0); i >= 0; i = p.acc.nonEmpty.next(i + 1) {
		if limit < 0 || len(parts) < limit {
			parts = append(parts, i)
		}
		n++
	}
	return parts, n
}

// Queue is partition's waiting batches, oldest (the next to go) first.
func (p *Producer) Queue(partition int) []BatchView {
	if partition < 0 || partition >= len(p.acc.queues) {
		return nil
	}
	q := &p.acc.queues[partition]
	out := make([]BatchView, 0, q.len())
	for _, b := range q.batches[q.head:] {
		age := p.sim.nowMs - b.createdMs
		out = append(out, BatchView{Records: b.records, Bytes: b.bytes, AgeMs: age, LingerLeftMs: max(0, p.lingerMs-age), Full: b.full()})
	}
	return out
}

// LastSent is the latest batch the sender took (false before the first).
func (p *Producer) LastSent() (SentBatch, bool) { return p.lastSent, p.batchesSent > 0 }

// BatchesSent counts the batches the sender has taken.
func (p *Producer) BatchesSent() int64 { return p.batchesSent }

// sendReason says why drain takes b now.
func sendReason(b *batch, nowMs, lingerMs int64) SendReason {
	switch {
	case b.full():
		return SentFull
	case nowMs-b.createdMs >= lingerMs:
		return SentLinger
	}
	return SentWithBroker
}
