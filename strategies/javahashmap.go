package strategies

import (
	"cmp"
	"slices"
)

// Kafka iterates java.util.HashMap and HashSet in several places where the
// order decides something: the sticky assignors' ties (which member keeps
// its extra partition, which moved partition moves back), the KIP-848
// coordinator's member order (who gets the extra partitions of a fresh
// assignment), the partitions a uniform member gives up, and the classic
// coordinator's "next member" when a leader goes. JavaHashMap is the one
// model of that order; the fast paths below (javaCapacityAfter and its
// users) are built from its growth rule, javaGrow, and checked against it.
//
// What Java does (OpenJDK 8–21 HashMap):
//   - the table is created with 16 buckets on the first put (or with
//     tableSizeFor(initialCapacity), as new HashSet<>(collection) asks);
//   - an entry's bucket is (h ^ (h >>> 16)) & (cap - 1), h = key.hashCode();
//   - a new entry goes to the end of its bucket's list, and resizing splits a
//     bucket without reordering it, so within a bucket order = insertion order;
//   - a put that makes a bucket 9 long (TREEIFY_THRESHOLD) calls treeifyBin,
//     which only doubles the table while cap < 64 (MIN_TREEIFY_CAPACITY);
//   - then, if size > 0.75·cap, the table doubles;
//   - a removal never shrinks the table.
//
// Not reproduced: a bucket that really becomes a red-black tree (9+ entries
// with cap >= 64) iterates from its tree root. That needs nine keys whose
// spread hashes agree in their low 6+ bits, which does not happen with member
// ids or partitions of ordinary groups.

const (
	javaInitialCapacity = 16
	javaTreeifyLength   = 8  // a bucket already this long is treeified (or the table grows) on the next put
	javaMinTreeifyCap   = 64 // below this capacity treeifyBin doubles the table instead
)

// javaGrow is HashMap.putVal's growth rule: the table size after a put of a
// new key into a table of capacity buckets, whose bucket already held
// inBucket keys, leaving size keys in the map.
func javaGrow(capacity, inBucket, size int) int {
	if inBucket >= javaTreeifyLength && capacity < javaMinTreeifyCap {
		capacity *= 2 // treeifyBin resizes a small table instead of building a tree
	}
	if size > capacity/4*3 {
		capacity *= 2
	}
	return capacity
}

// javaSpread is HashMap.hash: the hash code with its high half folded in.
func javaSpread(h int32) uint32 {
	u := uint32(h)
	return u ^ u>>16
}

// javaSpreadBucket is HashMap's bucket index for a hash code at a capacity.
func javaSpreadBucket(h int32, capacity int) int {
	return int(javaSpread(h) & uint32(capacity-1))
}

// javaHashMapBucket is the table index of a String key at a capacity.
func javaHashMapBucket(key string, capacity int) int {
	return javaSpreadBucket(JavaHashCode(key), capacity)
}

// javaLoadCapacity is the table size n puts leave in a table of initial
// buckets when only the load factor grows it, and whether that is the size
// whatever the keys' hashes. It is once it reaches 64: treeifyBin doubles
// only smaller tables, so it never takes one past 64, and the load factor
// never past this size.
func javaLoadCapacity(initial, n int) (capacity int, whateverTheHashes bool) {
	c := initial
	for n > c/4*3 {
		c *= 2
	}
	return c, c >= javaMinTreeifyCap
}

// javaCapacityAfter is the table size after n puts of distinct keys whose
// spread hashes are spread(0), …, spread(n-1), in that order, into a table
// of initial buckets: JavaHashMap's capacity without keeping its entries.
func javaCapacityAfter(initial, n int, spread func(i int) uint32) int {
	c, fixed := javaLoadCapacity(initial, n)
	if fixed {
		return c
	}
	// Replay the puts with one counter per bucket; here the table stays
	// within 64 buckets.
	var inBucket [javaMinTreeifyCap]int
	c = initial
	for i := range n {
		b := spread(i) & uint32(c-1)
		grown := javaGrow(c, inBucket[b], i+1)
		inBucket[b]++
		if grown != c {
			c = grown
			clear(inBucket[:])
			for j := range i + 1 {
				inBucket[spread(j)&uint32(c-1)]++
			}
		}
	}
	return c
}

// JavaHashMap is the iteration order of a java.util.HashMap (or HashSet)
// built by a series of puts and removes, keys hashed by hash (their
// hashCode()). The zero value is not usable: use NewJavaHashMap.
type JavaHashMap[K comparable] struct {
	hash    func(K) int32
	initial int // buckets on the first put
	cap     int // 0 until the first put
	nextSeq uint64
	entries []javaHashEntry[K]
	order   []K // the iteration order, kept until the next change
}

type javaHashEntry[K comparable] struct {
	key  K
	hash int32  // key.hashCode()
	seq  uint64 // insertion sequence: the order inside a bucket
}

// NewJavaHashMap is new HashMap<>() (or new HashSet<>()) for keys with the
// given hashCode().
func NewJavaHashMap[K comparable](hash func(K) int32) *JavaHashMap[K] {
	return newJavaHashMapSized(hash, javaInitialCapacity)
}

// newJavaHashMapSized is new HashMap<>(capacity) for a power of two capacity.
func newJavaHashMapSized[K comparable](hash func(K) int32, capacity int) *JavaHashMap[K] {
	return &JavaHashMap[K]{hash: hash, initial: capacity}
}

// Put adds key; a key already there keeps its place (HashMap.put replaces
// only the value).
func (t *JavaHashMap[K]) Put(key K) {
	if t.cap == 0 {
		t.cap = t.initial
	}
	h := t.hash(key)
	b := javaSpreadBucket(h, t.cap)
	inBucket := 0
	for _, e := range t.entries {
		if e.key == key {
			return
		}
		if javaSpreadBucket(e.hash, t.cap) == b {
			inBucket++
		}
	}
	t.entries = append(t.entries, javaHashEntry[K]{key: key, hash: h, seq: t.nextSeq})
	t.nextSeq++
	t.cap = javaGrow(t.cap, inBucket, len(t.entries))
	t.order = nil
}

// Remove deletes key if present; the capacity stays.
func (t *JavaHashMap[K]) Remove(key K) {
	for i, e := range t.entries {
		if e.key == key {
			t.entries = slices.Delete(t.entries, i, i+1)
			t.order = nil
			return
		}
	}
}

// Len is the number of keys.
func (t *JavaHashMap[K]) Len() int { return len(t.entries) }

// Capacity is the table size (0 before the first put).
func (t *JavaHashMap[K]) Capacity() int { return t.cap }

// compare orders entries as an iterator meets them: bucket, then insertion.
func (t *JavaHashMap[K]) compare(a, b javaHashEntry[K]) int {
	if c := cmp.Compare(javaSpreadBucket(a.hash, t.cap), javaSpreadBucket(b.hash, t.cap)); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// First returns the key an iterator returns first; false when empty.
func (t *JavaHashMap[K]) First() (K, bool) {
	if len(t.entries) == 0 {
		var none K
		return none, false
	}
	if t.order != nil {
		return t.order[0], true
	}
	return slices.MinFunc(t.entries, t.compare).key, true
}

// Keys returns the keys in iteration order (a fresh slice).
func (t *JavaHashMap[K]) Keys() []K {
	if t.order == nil {
		es := slices.SortedFunc(slices.Values(t.entries), t.compare)
		t.order = make([]K, len(es))
		for i, e := range es {
			t.order[i] = e.key
		}
	}
	return slices.Clone(t.order)
}

// javaHashMapOrder returns the iteration order of a new HashMap<String, V>
// after putting keys in the given order: indices into keys. Kafka's
// ConsumerCoordinator builds the member-id -> subscription map this way.
// JavaHashMap's order in O(n) plus one sort, for every assignment.
func javaHashMapOrder(keys []string) []int {
	spread := make([]uint32, len(keys))
	for i, k := range keys {
		spread[i] = javaSpread(JavaHashCode(k))
	}
	mask := uint32(javaCapacityAfter(javaInitialCapacity, len(keys), func(i int) uint32 { return spread[i] }) - 1)
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	// Stable: inside a bucket, insertion order.
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(spread[a]&mask, spread[b]&mask) })
	return idx
}
