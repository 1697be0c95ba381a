package produce

import "math/bits"

// bitset is a set of small non-negative ints (partition or slot indexes),
// so the per-millisecond passes visit only the partitions that have work —
// in index order, as Kafka's loops over partitions do — instead of them all.
type bitset []uint64

func (b *bitset) grow(n int) {
	if words := (n + 63) / 64; words > len(*b) {
		*b = append(*b, make([]uint64, words-len(*b))...)
	}
}

func (b *bitset) set(i int) {
	b.grow(i + 1)
	(*b)[i/64] |= 1 << (i % 64)
}

func (b bitset) clear(i int) {
	if i/64 < len(b) {
		b[i/64] &^= 1 << (i % 64)
	}
}

func (b bitset) reset() { clear(b) }

// next is the smallest member ≥ from, or -1.
func (b bitset) next(from int) int {
	w := from / 64
	if from < 0 || w >= len(b) {
		return -1
	}
	word := b[w] &^ (1<<(from%64) - 1)
	for {
		if word != 0 {
			return w*64 + bits.TrailingZeros64(word)
		}
		w++
		if w == len(b) {
			return -1
		}
		word = b[w]
	}
}
