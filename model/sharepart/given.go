package sharepart

// Restore is a share-partition as it initialises from the share state the
// share coordinator persisted (SharePartition.maybeInitialize reading
// ReadShareGroupState): the start offset, over a log ending at logEnd, with
// the persisted records' states and delivery counts (recs, in offset order,
// each at or past start and below logEnd; none ACQUIRED: acquisition locks
// are not persisted). An offset between start and the last record that
// recs leaves out is a gap: AVAILABLE and never delivered. As Kafka does
// after reading, the start offset then moves past records already
// ACKNOWLEDGED or ARCHIVED (maybeUpdateCachedStateAndOffsets).
func Restore(cfg Config, start, logEnd int64, recs []Record) *Partition {
	p := New(cfg, start, logEnd)
	for _, r := range recs {
		for p.fetched < r.Offset {
			p.inflight = append(p.inflight, Record{Offset: p.fetched})
			p.fetched++
		}
		r.Member, r.DeadlineMs = "", 0
		if r.State == Acquired {
			r.State = Available
		}
		p.inflight = append(p.inflight, r)
		p.fetched = r.Offset + 1
	}
	p.logEnd = max(p.logEnd, p.fetched)
	p.advance()
	return p
}
