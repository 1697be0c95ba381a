package model

import "iter"

// memberViews is a snapshot's member views in start order, kept in chunks
// of viewChunk. A step that changes one member copies that member's chunk
// and the short list of chunks, not a pointer per member: with a thousand
// members the copies (and the garbage collector scanning them in every
// recorded snapshot) cost more than the steps themselves (issue 3).
// Never changed once recorded; chunks are shared between snapshots.
type memberViews struct {
	chunks [][]*MemberView // each viewChunk long; entries past n are unused
	n      int
}

const viewChunk = 64

func (l memberViews) len() int { return l.n }

func (l memberViews) at(i int) *MemberView { return l.chunks[i/viewChunk][i%viewChunk] }

// all yields the views in start order.
func (l memberViews) all() iter.Seq2[int, *MemberView] {
	return func(yield func(int, *MemberView) bool) {
		for i := 0; i < l.n; i++ {
			if !yield(i, l.at(i)) {
				return
			}
		}
	}
}

// sameList: b is the very list a is (not merely equal views), as a slice's
// identity was.
func (l memberViews) sameList(b memberViews) bool {
	return l.n == b.n && (l.n == 0 || &l.chunks[0] == &b.chunks[0])
}

// equal: the same views, position by position. Shared chunks are equal
// without looking inside.
func (l memberViews) equal(b memberViews) bool {
	if l.n != b.n {
		return false
	}
	for k := range l.chunks {
		if &l.chunks[k][0] == &b.chunks[k][0] {
			continue
		}
		for i := k * viewChunk; i < min(l.n, (k+1)*viewChunk); i++ {
			if l.at(i) != b.at(i) {
				return false
			}
		}
	}
	return true
}

// memberViewsBuilder makes the next list from prev, copying a chunk the
// first time one of its views is replaced.
type memberViewsBuilder struct {
	l     memberViews
	owned []bool // chunk k is this list's own copy
}

func newMemberViewsBuilder(prev memberViews, n int) memberViewsBuilder {
	chunks := make([][]*MemberView, (n+viewChunk-1)/viewChunk)
	copy(chunks, prev.chunks)
	return memberViewsBuilder{l: memberViews{chunks: chunks, n: n}, owned: make([]bool, len(chunks))}
}

func (b *memberViewsBuilder) set(i int, v *MemberView) {
	k := i / viewChunk
	if !b.owned[k] {
		c := make([]*MemberView, viewChunk)
		copy(c, b.l.chunks[k])
		b.l.chunks[k], b.owned[k] = c, true
	}
	b.l.chunks[k][i%viewChunk] = v
}
