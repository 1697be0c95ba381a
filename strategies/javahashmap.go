package strategies

import "sort"

// Kafka's sticky assignors iterate java.util.HashMap and HashSet in several
// places, and the iteration order decides ties (which member keeps its extra
// partition, which moved partition moves back). javaHashTable reproduces that
// order for a table built by a series of put/remove calls.
//
// What Java does (OpenJDK 8–21 HashMap):
//   - the table is created with 16 buckets on the first put;
//   - an entry's bucket is (h ^ (h >>> 16)) & (cap - 1), h = key.hashCode();
//   - a new entry goes to the end of its bucket's list, and resizing splits a
//     bucket without reordering it, so within a bucket order = insertion order;
//   - after a put, if size > 0.75·cap the table doubles;
//   - a put that makes a bucket 9 long calls treeifyBin, which only doubles the
//     table while cap < 64 (MIN_TREEIFY_CAPACITY);
//   - a removal never shrinks the table.
//
// Not reproduced: a bucket that really becomes a red-black tree (9+ entries
// with cap >= 64) iterates from its tree root. That needs nine keys whose
// spread hashes agree in their low 6+ bits, which does not happen with member
// ids or partitions of ordinary groups.
type javaHashTable struct {
	cap     int
	nextSeq uint64
	entries []javaHashEntry
}

type javaHashEntry struct {
	key  int32  // the caller's index for the key (member index, partition id)
	hash int32  // key.hashCode()
	seq  uint64 // insertion sequence: the order inside a bucket
}

const (
	javaInitialCapacity = 16
	javaTreeifyLength   = 8  // a bucket longer than this is treeified (or the table grows)
	javaMinTreeifyCap   = 64 // below this capacity treeifyBin doubles the table instead
)

// javaSpreadBucket is HashMap's bucket index for a hash at a capacity.
func javaSpreadBucket(h int32, capacity int) int {
	u := uint32(h)
	return int((u ^ (u >> 16)) & uint32(capacity-1))
}

// put adds a key that is not yet in the table.
func (t *javaHashTable) put(key, hash int32) {
	if t.cap == 0 {
		t.cap = javaInitialCapacity
	}
	b := javaSpreadBucket(hash, t.cap)
	inBucket := 0
	for _, e := range t.entries {
		if javaSpreadBucket(e.hash, t.cap) == b {
			inBucket++
		}
	}
	t.entries = append(t.entries, javaHashEntry{key: key, hash: hash, seq: t.nextSeq})
	t.nextSeq++
	if inBucket >= javaTreeifyLength && t.cap < javaMinTreeifyCap {
		t.cap *= 2
	}
	if len(t.entries) > t.cap*3/4 {
		t.cap *= 2
	}
}

// remove deletes key if present; the capacity stays.
func (t *javaHashTable) remove(key int32) {
	for i, e := range t.entries {
		if e.key == key {
			t.entries = append(t.entries[:i], t.entries[i+1:]...)
			return
		}
	}
}

func (t *javaHashTable) len() int { return len(t.entries) }

// before reports whether a iterates before b.
func (t *javaHashTable) before(a, b javaHashEntry) bool {
	ba, bb := javaSpreadBucket(a.hash, t.cap), javaSpreadBucket(b.hash, t.cap)
	if ba != bb {
		return ba < bb
	}
	return a.seq < b.seq
}

// first returns the key an iterator would return first, or -1 when empty.
func (t *javaHashTable) first() int32 {
	if len(t.entries) == 0 {
		return -1
	}
	best := t.entries[0]
	for _, e := range t.entries[1:] {
		if t.before(e, best) {
			best = e
		}
	}
	return best.key
}

// order returns the keys in iteration order.
func (t *javaHashTable) order() []int32 {
	es := append([]javaHashEntry(nil), t.entries...)
	sort.Slice(es, func(i, j int) bool { return t.before(es[i], es[j]) })
	out := make([]int32, len(es))
	for i, e := range es {
		out[i] = e.key
	}
	return out
}

// javaHashMapOrder returns the iteration order of a new HashMap<String, V>
// after putting keys in the given order: indices into keys. Kafka's
// ConsumerCoordinator builds the member-id -> subscription map this way.
// It replays the puts with one counter per bucket, so it is O(n) apart from
// the final sort, and applies the same growth rules as javaHashTable.put.
func javaHashMapOrder(keys []string) []int {
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = JavaHashCode(k)
	}
	capacity := javaInitialCapacity
	counts := make([]int32, capacity)
	for n, h := range hashes {
		b := javaSpreadBucket(h, capacity)
		if counts[b] >= javaTreeifyLength && capacity < javaMinTreeifyCap {
			capacity *= 2
		}
		counts[b]++
		if n+1 > capacity*3/4 {
			capacity *= 2
		}
		if len(counts) != capacity {
			counts = make([]int32, capacity)
			for _, seen := range hashes[:n+1] {
				counts[javaSpreadBucket(seen, capacity)]++
			}
		}
	}
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	// Stable: inside a bucket, insertion order.
	sort.SliceStable(idx, func(a, b int) bool {
		return javaSpreadBucket(hashes[idx[a]], capacity) < javaSpreadBucket(hashes[idx[b]], capacity)
	})
	return idx
}
