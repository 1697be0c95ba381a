package strategies

import (
	"cmp"
	"slices"
)

// Kafka iterates java.util.HashMap and HashSet in several places where the
// order decides something: the sticky assignors' ties (which member keeps
// its extra partition, which moved partition moves back), the KIP-848
// coordinator's member order (who gets the extra partitions of a fresh
// assignment), the partitions a uniform member gives up, the classic
// coordinator's "next member" when a leader goes, and which members the
// share-group simple assignor gives a partition. JavaHashMap is the one
// model of that order; the fast paths below (javaCapacityAfter and its
// users) are built from its growth rule, javaGrow, and checked against it.
//
// What Java does (OpenJDK 8–21 HashMap):
//   - the table is created with 16 buckets on the first insertion (or with
//     tableSizeFor(initialCapacity), as new HashSet<>(collection) asks);
//   - an entry's bucket is (h ^ (h >>> 16)) & (cap - 1), h = key.hashCode();
//   - put (HashSet.add) appends a new entry to its bucket's list, and
//     resizing splits a bucket without reordering it, so within a bucket
//     order = insertion order;
//   - a put that makes a bucket 9 long (TREEIFY_THRESHOLD) calls treeifyBin,
//     which only doubles the table while cap < 64 (MIN_TREEIFY_CAPACITY);
//   - then, if size > 0.75·cap, the table doubles;
//   - computeIfAbsent differs: it puts the new entry at the head of its
//     bucket, treeifies a bucket that was 7 long, and doubles the table
//     before an insertion that finds size > 0.75·cap, not after one;
//   - a removal never shrinks the table.
//
// A bucket that becomes a red-black tree (9+ entries with cap >= 64) is
// reproduced for keys Java compares, String and Integer
// (javahashmap_tree.go). For keys that do not compare, such as
// TopicIdPartition, Java breaks ties by System.identityHashCode, which
// cannot be reproduced: JavaHashMap.treeified says when that happened. It
// needs nine keys whose spread hashes agree in their low 6+ bits.

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
	if size > javaThreshold(capacity) {
		capacity *= 2
	}
	return capacity
}

// javaIntegerHash is Integer.hashCode: the value.
func javaIntegerHash(i int32) int32 { return i }

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
	for n > javaThreshold(c) {
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
// built by a series of puts, computeIfAbsents and removes, keys hashed by
// hash (their hashCode()). It is Java's table itself: buckets of chained
// entries, split in order when the table doubles, so every operation costs
// what it costs in Java. The zero value is not usable: use NewJavaHashMap.
type JavaHashMap[K comparable] struct {
	hash    func(K) int32
	initial int     // buckets on the first insertion
	head    []int32 // per bucket: its first entry, -1 when empty; nil before the first insertion
	keys    []K     // per entry
	hashes  []int32 // per entry: key.hashCode()
	next    []int32 // per entry: the next entry of its bucket, -1 at the end
	free    []int32 // entries removed, for reuse
	size    int
	tree    bool // a bucket became a tree kviz cannot order: keys without compare (see treeified)
	order   []K  // the iteration order, kept until the next change

	// compare, when set, is the keys' compareTo (String and Integer keys
	// are Comparable in Java): a bucket that becomes a red-black tree is
	// then ordered as Java orders it (javahashmap_tree.go).
	compare func(a, b K) int
	bins    *javaTreeBins // nil until a bucket becomes a tree
}

// NewJavaHashMap is new HashMap<>() (or new HashSet<>()) for keys with the
// given hashCode().
func NewJavaHashMap[K comparable](hash func(K) int32) *JavaHashMap[K] {
	return newJavaHashMapSized(hash, javaInitialCapacity)
}

// NewJavaHashMapCapacity is new HashMap<>(initialCapacity): its first
// insertion creates tableSizeFor(initialCapacity) buckets.
func NewJavaHashMapCapacity[K comparable](hash func(K) int32, initialCapacity int) *JavaHashMap[K] {
	return newJavaHashMapSized(hash, javaTableSizeFor(initialCapacity))
}

// newJavaHashMapSized is new HashMap<>(capacity) for a power of two
// capacity. String keys compare as Java's do (see compare).
func newJavaHashMapSized[K comparable](hash func(K) int32, capacity int) *JavaHashMap[K] {
	t := &JavaHashMap[K]{hash: hash, initial: capacity}
	if _, isString := any(*new(K)).(string); isString {
		t.compare = func(a, b K) int { return JavaCompare(any(a).(string), any(b).(string)) }
	}
	return t
}

// withCompare sets the keys' compareTo, for keys Java compares that are not
// Go strings (an Integer, a member index standing for its id).
func (t *JavaHashMap[K]) withCompare(compare func(a, b K) int) *JavaHashMap[K] {
	t.compare = compare
	return t
}

// javaTableSizeFor is HashMap.tableSizeFor: the power of two at or above n
// (1 for n <= 1), at most 2^30.
func javaTableSizeFor(n int) int {
	c := 1
	for c < n && c < 1<<30 {
		c <<= 1
	}
	return c
}

// javaThreshold is the size above which a table of capacity buckets
// doubles: (int) (capacity * 0.75f).
func javaThreshold(capacity int) int { return capacity * 3 / 4 }

// Put is HashMap.put (HashSet.add): a new key goes to the end of its
// bucket, and the table grows after the insertion. A key already there
// keeps its place (put replaces only the value). It reports whether the key
// is new.
func (t *JavaHashMap[K]) Put(key K) bool {
	if t.head == nil {
		t.resize()
	}
	h := t.hash(key)
	b := javaSpreadBucket(h, len(t.head))
	if t.isTreeBin(b) {
		added := t.putTree(b, key, h)
		if added && t.size > javaThreshold(len(t.head)) {
			t.resize()
		}
		return added
	}
	last, inBucket := int32(-1), 0
	for e := t.head[b]; e >= 0; e = t.next[e] {
		if t.hashes[e] == h && t.keys[e] == key {
			return false
		}
		last = e
		inBucket++
	}
	n := t.newEntry(key, h)
	if last < 0 {
		t.head[b] = n
	} else {
		t.next[last] = n
	}
	if inBucket >= javaTreeifyLength {
		t.treeifyBin(b)
	}
	t.size++
	if t.size > javaThreshold(len(t.head)) {
		t.resize()
	}
	t.order = nil
	return true
}

// ComputeIfAbsent places a new key as HashMap.computeIfAbsent does: at the
// head of its bucket, and the table grows before the insertion that finds
// it over its threshold, not after. A bucket already seven long is
// treeified (a small table doubles instead), one entry earlier than put. It
// reports whether the key is new.
func (t *JavaHashMap[K]) ComputeIfAbsent(key K) bool {
	if t.head == nil || t.size > javaThreshold(len(t.head)) {
		t.resize()
	}
	h := t.hash(key)
	b := javaSpreadBucket(h, len(t.head))
	if t.isTreeBin(b) {
		return t.putTree(b, key, h)
	}
	inBucket := 0
	for e := t.head[b]; e >= 0; e = t.next[e] {
		if t.hashes[e] == h && t.keys[e] == key {
			return false
		}
		inBucket++
	}
	n := t.newEntry(key, h)
	t.next[n] = t.head[b]
	t.head[b] = n
	if inBucket >= javaTreeifyLength-1 {
		t.treeifyBin(b)
	}
	t.size++
	t.order = nil
	return true
}

// newEntry stores key as an entry of no bucket yet.
func (t *JavaHashMap[K]) newEntry(key K, h int32) int32 {
	if k := len(t.free); k > 0 {
		n := t.free[k-1]
		t.free = t.free[:k-1]
		t.keys[n], t.hashes[n], t.next[n] = key, h, -1
		return n
	}
	t.keys = append(t.keys, key)
	t.hashes = append(t.hashes, h)
	t.next = append(t.next, -1)
	if t.bins != nil {
		t.bins.grow(len(t.keys))
	}
	return int32(len(t.keys) - 1)
}

// putTree adds key to tree bucket b unless it is there (putTreeVal) and
// reports whether it was new.
func (t *JavaHashMap[K]) putTree(b int, key K, h int32) bool {
	if t.findInBucket(b, key, h) >= 0 {
		return false
	}
	t.putTreeVal(b, t.newEntry(key, h))
	t.size++
	t.order = nil
	return true
}

// findInBucket is key's entry in bucket b, -1 if absent.
func (t *JavaHashMap[K]) findInBucket(b int, key K, h int32) int32 {
	for e := t.head[b]; e >= 0; e = t.next[e] {
		if t.hashes[e] == h && t.keys[e] == key {
			return e
		}
	}
	return -1
}

// treeifyBin doubles a table below 64 buckets; a larger one turns bucket b
// into a red-black tree (ordered when the keys compare; see treeified).
func (t *JavaHashMap[K]) treeifyBin(b int) {
	if len(t.head) < javaMinTreeifyCap {
		t.resize()
		return
	}
	if t.compare == nil {
		t.tree = true
		return
	}
	t.treeify(b)
}

// resize creates the table (initial buckets) or doubles it, splitting each
// bucket into its low and high halves in order, as HashMap.resize does.
func (t *JavaHashMap[K]) resize() {
	t.order = nil
	if t.head == nil {
		t.head = make([]int32, t.initial)
		for i := range t.head {
			t.head[i] = -1
		}
		return
	}
	old := t.head
	t.head = make([]int32, 2*len(old))
	var oldTrees []bool
	if t.bins != nil {
		oldTrees = t.bins.tree
		t.bins.tree = make([]bool, len(t.head))
	}
	for j, first := range old {
		loHead, loTail, hiHead, hiTail := int32(-1), int32(-1), int32(-1), int32(-1)
		lc, hc := 0, 0
		for e := first; e >= 0; {
			nx := t.next[e]
			t.next[e] = -1
			if javaSpread(t.hashes[e])&uint32(len(old)) == 0 {
				if loTail < 0 {
					loHead = e
				} else {
					t.next[loTail] = e
				}
				loTail = e
				lc++
			} else {
				if hiTail < 0 {
					hiHead = e
				} else {
					t.next[hiTail] = e
				}
				hiTail = e
				hc++
			}
			e = nx
		}
		t.head[j], t.head[j+len(old)] = loHead, hiHead
		if oldTrees != nil && oldTrees[j] {
			t.splitTree(j, len(old), lc, hc) // TreeNode.split
		}
	}
}

// Remove deletes key if present and reports whether it was; the capacity
// stays, and the other keys keep their order.
func (t *JavaHashMap[K]) Remove(key K) bool {
	if t.head == nil {
		return false
	}
	h := t.hash(key)
	b := javaSpreadBucket(h, len(t.head))
	prev := int32(-1)
	for e := t.head[b]; e >= 0; prev, e = e, t.next[e] {
		if t.hashes[e] != h || t.keys[e] != key {
			continue
		}
		if t.isTreeBin(b) {
			t.removeTreeNode(b, e, prev)
		} else if prev < 0 {
			t.head[b] = t.next[e]
		} else {
			t.next[prev] = t.next[e]
		}
		var zero K
		t.keys[e] = zero
		t.free = append(t.free, e)
		t.size--
		t.order = nil
		return true
	}
	return false
}

// Contains reports whether key is in the map.
func (t *JavaHashMap[K]) Contains(key K) bool {
	if t.head == nil {
		return false
	}
	h := t.hash(key)
	for e := t.head[javaSpreadBucket(h, len(t.head))]; e >= 0; e = t.next[e] {
		if t.hashes[e] == h && t.keys[e] == key {
			return true
		}
	}
	return false
}

// Len is the number of keys.
func (t *JavaHashMap[K]) Len() int { return t.size }

// Capacity is the table size (0 before the first insertion).
func (t *JavaHashMap[K]) Capacity() int { return len(t.head) }

// treeified reports whether some bucket, in a table of at least 64, grew to
// the length where Java turns it into a red-black tree while the keys have
// no compare: Java then orders that bucket by identity hash codes, and kviz
// keeps its list order. That takes nine keys (eight through computeIfAbsent)
// whose spread hashes agree in their low 6+ bits.
func (t *JavaHashMap[K]) treeified() bool { return t.tree }

// First returns the key an iterator returns first; false when empty.
func (t *JavaHashMap[K]) First() (K, bool) {
	if t.order != nil {
		return t.order[0], true
	}
	if t.size > 0 {
		for _, e := range t.head {
			if e >= 0 {
				return t.keys[e], true
			}
		}
	}
	var none K
	return none, false
}

// Keys returns the keys in iteration order (a fresh slice).
func (t *JavaHashMap[K]) Keys() []K {
	if t.order == nil && t.size > 0 {
		t.order = make([]K, 0, t.size)
		for _, e := range t.head {
			for ; e >= 0; e = t.next[e] {
				t.order = append(t.order, t.keys[e])
			}
		}
	}
	if t.order == nil {
		return []K{}
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
