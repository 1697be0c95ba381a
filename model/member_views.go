package model

import (
	"iter"
	"slices"
)

// memberViews is a snapshot's member views in start order. A large group's
// views are kept in chunks of viewChunk: a step that changes one member
// copies that member's chunk and the short list of chunks, not a pointer
// per member. With a thousand members the copies (and the garbage
// collector scanning them in every recorded snapshot) cost more than the
// steps themselves (issue 3). A group of up to viewChunk members keeps one
// flat slice, copied whole, which is cheapest at that size.
// Never changed once recorded; chunks are shared between snapshots.
type memberViews struct {
	flat   []*MemberView   // n <= viewChunk: the views themselves
	chunks [][]*MemberView // n > viewChunk: viewChunk long, the last one at least up to n; entries past n unused
	n      int
}

const viewChunk = 64

func (l memberViews) len() int { return l.n }

func (l memberViews) at(i int) *MemberView {
	if l.chunks == nil {
		return l.flat[i]
	}
	return l.chunks[i/viewChunk][i%viewChunk]
}

// all yields the views in start order.
func (l memberViews) all() iter.Seq2[int, *MemberView] {
	return func(yield func(int, *MemberView) bool) {
		if l.chunks == nil {
			for i, v := range l.flat {
				if !yield(i, v) {
					return
				}
			}
			return
		}
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
	switch {
	case l.n != b.n:
		return false
	case l.n == 0:
		return true
	case l.chunks == nil || b.chunks == nil:
		return l.chunks == nil && b.chunks == nil && &l.flat[0] == &b.flat[0]
	}
	return &l.chunks[0] == &b.chunks[0]
}

// equal: the same views, position by position. Shared chunks are equal
// without looking inside.
func (l memberViews) equal(b memberViews) bool {
	if l.n != b.n {
		return false
	}
	if l.chunks == nil && b.chunks == nil {
		return slices.Equal(l.flat, b.flat)
	}
	for i := 0; i < l.n; i++ {
		if l.chunks != nil && b.chunks != nil && i%viewChunk == 0 && &l.chunks[i/viewChunk][0] == &b.chunks[i/viewChunk][0] {
			i += viewChunk - 1
			continue
		}
		if l.at(i) != b.at(i) {
			return false
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

// newMemberViewsBuilder starts from prev; scratch is reused memory for
// the builder's bookkeeping (one builder at a time).
func newMemberViewsBuilder(prev memberViews, n int, scratch *[]bool) memberViewsBuilder {
	if n <= viewChunk {
		flat := make([]*MemberView, n)
		for i := 0; i < min(n, prev.n); i++ {
			flat[i] = prev.at(i)
		}
		return memberViewsBuilder{l: memberViews{flat: flat, n: n}}
	}
	chunks := make([][]*MemberView, (n+viewChunk-1)/viewChunk)
	if prev.chunks != nil {
		copy(chunks, prev.chunks)
	} else if prev.n > 0 {
		chunks[0] = prev.flat // copied on the first set below: it is shorter than a chunk
	}
	owned := append((*scratch)[:0], make([]bool, len(chunks))...)
	*scratch = owned
	return memberViewsBuilder{l: memberViews{chunks: chunks, n: n}, owned: owned}
}

func (b *memberViewsBuilder) set(i int, v *MemberView) {
	if b.l.chunks == nil {
		b.l.flat[i] = v
		return
	}
	k := i / viewChunk
	if !b.owned[k] {
		c := make([]*MemberView, min(viewChunk, b.l.n-k*viewChunk))
		copy(c, b.l.chunks[k])
		b.l.chunks[k], b.owned[k] = c, true
	}
	b.l.chunks[k][i%viewChunk] = v
}

// changes calls fn for each position where l's view differs from old's
// (old is nil past old's end). Chunks both lists share are skipped
// unread: a step changes a member or two of a thousand.
func (l memberViews) changes(old memberViews, fn func(i int, was, is *MemberView)) {
	if l.chunks == nil && old.chunks == nil { // a small group: two flat slices
		for i, is := range l.flat {
			var was *MemberView
			if i < len(old.flat) {
				was = old.flat[i]
			}
			if is != was {
				fn(i, was, is)
			}
		}
		return
	}
	shared := 0 // positions below this were seen equal chunk by chunk
	for i := 0; i < l.n; i++ {
		if i%viewChunk == 0 && l.chunks != nil && old.chunks != nil && i/viewChunk < len(old.chunks) &&
			&l.chunks[i/viewChunk][0] == &old.chunks[i/viewChunk][0] {
			shared = min(i+viewChunk, l.n, old.n)
		}
		if i < shared {
			continue
		}
		var was *MemberView
		if i < old.n {
			was = old.at(i)
		}
		if is := l.at(i); is != was {
			fn(i, was, is)
		}
	}
}
