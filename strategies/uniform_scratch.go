package strategies

import "sync"

// The KIP-848 coordinator runs uniform on every heartbeat that bumps the
// group epoch, so the model calls it once per join or leave: a thousand
// calls for a thousand members. Each call needs a dozen working slices sized
// by members or partitions; allocating them afresh made the garbage collector
// the biggest cost (issue 3). uniformScratch keeps them between calls. Only
// the Assignment (its maps and partition lists) and explanation lines are
// allocated per call, because they outlive it.

// uniformScratch holds the working memory of one Assign call. Everything in
// it is overwritten before it is read; nothing in it is returned.
type uniformScratch struct {
	// member order
	byID        []int
	spread      []uint32
	bucket      []int
	bucketStart []int

	// serverSpec
	members   []Member
	subs      [][]int32
	claims    [][]int
	claimBuf  []int
	claimedBy []int32

	// builders
	owner      []int32
	unassigned []int
	unfilled   []int
	room       []int
	trim       []int
	trimKeys   []uint64
	trimSegs   []int
	trimTails  []int
	trimPicked []uint64

	// assignment
	count, cursor []int
	eachBuf       []int32 // AssignEach's partitions
	segments      []serverSegment
}

var uniformScratchPool = sync.Pool{New: func() any { return new(uniformScratch) }}

func getUniformScratch() *uniformScratch { return uniformScratchPool.Get().(*uniformScratch) }

// putUniformScratch returns sc to the pool, dropping its references to the
// caller's members so a pooled scratch keeps no group alive.
func putUniformScratch(sc *uniformScratch) {
	clear(sc.members[:cap(sc.members)])
	clear(sc.subs[:cap(sc.subs)])
	clear(sc.claims[:cap(sc.claims)])
	uniformScratchPool.Put(sc)
}

// serverGrow returns buf resized to n, reusing its memory when it is big enough.
// The contents are stale: the caller sets every element it reads.
func serverGrow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n, n+n/4)
	}
	*buf = (*buf)[:n]
	return *buf
}

// serverFilled is serverGrow with every element set to v. It copies doubling
// blocks (memmove) instead of storing one element at a time: the uniform
// assignor refills two partition-sized slices on every run.
func serverFilled[T any](buf *[]T, n int, v T) []T {
	out := serverGrow(buf, n)
	if n == 0 {
		return out
	}
	out[0] = v
	for k := 1; k < n; k *= 2 {
		copy(out[k:], out[:k])
	}
	return out
}
