package strategies

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func javaOrderedKeys(keys []string) []string {
	var out []string
	for _, i := range javaHashMapOrder(keys) {
		out = append(out, keys[i])
	}
	return out
}

// The expected orders are what OpenJDK 17's HashMap.keySet() prints for the
// same puts; the first ones can be checked by hand from the bucket formula.
func TestJavaHashMapOrderMatchesJava(t *testing.T) {
	// "c0".hashCode() = 99·31 + 48 = 3117; 3117 >>> 16 = 0, 3117 & 15 = 13.
	// c1 → 14, c2 → 15, c3 → 3120 & 15 = 0, ..., c9 → 6: buckets 0..6 first.
	assert.Equal(t, []string{"c3", "c4", "c5", "c6", "c7", "c8", "c9", "c0", "c1", "c2"},
		javaOrderedKeys([]string{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"}))
	// KAFKA.md §4: consumer-3, consumer-2, consumer-1.
	assert.Equal(t, []string{"consumer-3", "consumer-2", "consumer-1"},
		javaOrderedKeys([]string{"consumer-1", "consumer-2", "consumer-3"}))
	// "Aa" and "BB" share hashCode 2112: inside a bucket, insertion order.
	assert.Equal(t, []string{"BB", "Aa", "c0"}, javaOrderedKeys([]string{"BB", "Aa", "c0"}))
	assert.Equal(t, []string{"Aa", "BB", "c0"}, javaOrderedKeys([]string{"Aa", "BB", "c0"}))
}

func TestJavaHashMapOrderResizes(t *testing.T) {
	// "m9" and "m11" share bucket 12 (at 16 and at 32 buckets): insertion
	// order puts m9 first, and m11 (bucket 12) before m10 (bucket 13).
	assert.Equal(t, []string{"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m11", "m10", "m12"},
		javaOrderedKeys([]string{"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11", "m12"}))
	// 17 entries > 0.75·16: the table has 32 buckets. With 16 it would
	// start member-m, member-n, member-k, member-l, member-a, ...
	keys := []string{"member-a", "member-b", "member-c", "member-d", "member-e", "member-f", "member-g", "member-h",
		"member-i", "member-j", "member-k", "member-l", "member-m", "member-n", "member-o", "member-p", "member-q"}
	assert.Equal(t, []string{"member-a", "member-b", "member-m", "member-n", "member-k", "member-l", "member-q", "member-o",
		"member-p", "member-e", "member-f", "member-c", "member-d", "member-i", "member-j", "member-g", "member-h"}, javaOrderedKeys(keys))
}

func TestJavaHashMapOrderTreeifyGrowsSmallTable(t *testing.T) {
	// All nine keys fall in bucket 5 of 16. The ninth put makes the bucket 9
	// long and treeifyBin doubles the table instead (cap < 64), which splits
	// them into buckets 5 and 21. Without that rule the order would be the
	// insertion order.
	keys := []string{"x40", "x51", "x62", "x73", "x170", "x181", "x192", "x280", "x291"}
	assert.Equal(t, []string{"x170", "x181", "x192", "x280", "x291", "x40", "x51", "x62", "x73"}, javaOrderedKeys(keys))
}

func TestJavaHashTableFirstMatchesHashSet(t *testing.T) {
	// A HashSet<TopicPartition> of topic-0, 7, 14, ..., 133; then every other
	// one removed, then topic-0 added back (it goes to the end of its bucket).
	in := &stickyInput{topics: []string{"topic"}, base: []int32{0}, counts: []int32{200}, topicOf: make([]int32, 200)}
	hashes := in.topicHashes()
	assert.Equal(t, int32(4698), 31*(31+3)+JavaHashCode("t0"), "TopicPartition(t0, 3).hashCode()")
	set := NewJavaHashMap(func(pid int32) int32 { return in.tpHash(pid, hashes) })
	first := func() int32 { k, _ := set.First(); return k }
	for p := int32(0); p < 20; p++ {
		set.Put(p * 7)
	}
	assert.Equal(t, int32(28), first())
	for p := int32(0); p < 20; p += 2 {
		set.Remove(p * 7)
	}
	assert.Equal(t, int32(91), first())
	set.Put(0)
	assert.Equal(t, int32(91), first())
	assert.Equal(t, []int32{91, 0, 63, 49, 21, 119, 105, 77, 35, 133, 7}, set.Keys())
	set.Put(91) // already there: it keeps its place
	assert.Equal(t, int32(91), first())
	assert.Equal(t, 11, set.Len())
}

// collidingKeys draws strings of "Aa" and "BB" blocks — every such string of
// k blocks has the same hashCode — mixed with ordinary ids, so that buckets
// fill up and treeifyBin's growth is exercised.
func collidingKeys(t *rapid.T) []string {
	block := rapid.SampledFrom([]string{"Aa", "BB"})
	key := rapid.OneOf(
		rapid.Custom(func(t *rapid.T) string {
			return strings.Join(rapid.SliceOfN(block, 3, 3).Draw(t, "blocks"), "")
		}),
		rapid.StringMatching(`[a-z]{1,3}[0-9]{0,3}`),
	)
	return rapid.SliceOfNDistinct(key, 0, 120, rapid.ID[string]).Draw(t, "keys")
}

// javaHashMapOrder (the sticky assignors' fast path) is JavaHashMap's order
// for the same puts.
func TestJavaHashMapOrderMatchesTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := collidingKeys(t)
		table := NewJavaHashMap(JavaHashCode)
		for _, k := range keys {
			table.Put(k)
		}
		require.Equal(t, table.Keys(), javaOrderedKeysOrNil(keys))
	})
}

func javaOrderedKeysOrNil(keys []string) []string {
	out := javaOrderedKeys(keys)
	if out == nil {
		return []string{}
	}
	return out
}

// javaCapacityAfter replays the puts with counters (and skips the replay
// where the load factor decides): it must give the table's capacity for any
// hashes and any starting size, crowded buckets included.
func TestJavaCapacityAfterMatchesTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		initial := rapid.SampledFrom([]int{16, 32, 64, 128}).Draw(t, "initial")
		step := rapid.SampledFrom([]int32{1, 7, 16, 32, 64, 1 << 16}).Draw(t, "step")
		n := rapid.IntRange(0, 200).Draw(t, "n")
		hashes := make([]int32, n)
		for i := range hashes {
			hashes[i] = int32(i)*step + rapid.Int32Range(0, 2).Draw(t, "jitter")*1024
		}
		table := newJavaHashMapSized(func(i int) int32 { return hashes[i] }, initial)
		for i := range hashes {
			table.Put(i)
		}
		want := max(table.Capacity(), initial) // an empty table has none yet
		require.Equal(t, want, javaCapacityAfter(initial, n, func(i int) uint32 { return javaSpread(hashes[i]) }))
	})
}

// The fast paths exist because a group's member order is computed on every
// assignment: JavaHashMap scans its entries on each put (quadratic), the
// fast path counts buckets and sorts once.
func BenchmarkJavaHashMapOrder(b *testing.B) {
	for _, n := range []int{100, 1000, 5000} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("consumer-%d-%08x", i, uint32(i)*2654435761)
		}
		b.Run(fmt.Sprintf("fast/%d", n), func(b *testing.B) {
			for b.Loop() {
				javaHashMapOrder(keys)
			}
		})
		b.Run(fmt.Sprintf("table/%d", n), func(b *testing.B) {
			for b.Loop() {
				t := NewJavaHashMap(JavaHashCode)
				for _, k := range keys {
					t.Put(k)
				}
				t.Keys()
			}
		})
	}
}

// listHashMap is the definition JavaHashMap's put and remove were first
// written as: entries in a list, iterated by (bucket, insertion sequence),
// the capacity replayed with javaGrow. The chained table must agree with it.
type listHashMap struct {
	hash    func(string) int32
	cap     int
	nextSeq int
	entries []listEntry
}

type listEntry struct {
	key  string
	hash int32
	seq  int
}

func (t *listHashMap) put(key string) {
	if t.cap == 0 {
		t.cap = javaInitialCapacity
	}
	h := t.hash(key)
	inBucket := 0
	for _, e := range t.entries {
		if e.key == key {
			return
		}
		if javaSpreadBucket(e.hash, t.cap) == javaSpreadBucket(h, t.cap) {
			inBucket++
		}
	}
	t.entries = append(t.entries, listEntry{key, h, t.nextSeq})
	t.nextSeq++
	t.cap = javaGrow(t.cap, inBucket, len(t.entries))
}

func (t *listHashMap) remove(key string) {
	t.entries = slices.DeleteFunc(t.entries, func(e listEntry) bool { return e.key == key })
}

func (t *listHashMap) keys() []string {
	es := slices.Clone(t.entries)
	slices.SortFunc(es, func(a, b listEntry) int {
		if c := cmp.Compare(javaSpreadBucket(a.hash, t.cap), javaSpreadBucket(b.hash, t.cap)); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	out := []string{}
	for _, e := range es {
		out = append(out, e.key)
	}
	return out
}

// Puts and removes in any mix give the list definition's order and capacity.
func TestJavaHashMapMatchesListDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := collidingKeys(t)
		if len(keys) == 0 {
			return
		}
		table := NewJavaHashMap(JavaHashCode)
		ref := &listHashMap{hash: JavaHashCode}
		ops := rapid.IntRange(0, 300).Draw(t, "ops")
		for range ops {
			k := rapid.SampledFrom(keys).Draw(t, "key")
			if rapid.IntRange(0, 3).Draw(t, "op") == 0 {
				table.Remove(k)
				ref.remove(k)
			} else {
				table.Put(k)
				ref.put(k)
			}
			require.Equal(t, ref.keys(), table.Keys())
			require.Equal(t, len(ref.entries), table.Len())
			require.Equal(t, ref.cap, table.Capacity())
			if first, ok := table.First(); ok {
				require.Equal(t, ref.keys()[0], first)
			}
		}
	})
}

// What OpenJDK 17 prints for the same calls (HashMap<Integer, _>.keySet()):
// computeIfAbsent puts a key at the head of its bucket, grows the table
// before the insertion that finds it over the threshold, and treeifies (here:
// doubles a small table) a bucket that was seven long, where put waits for
// eight.
func TestJavaHashMapComputeIfAbsentMatchesJava(t *testing.T) {
	ints := func(ks ...int32) []int32 { return ks }
	identity := func(k int32) int32 { return k }
	run := func(compute bool, keys []int32) []int32 {
		m := NewJavaHashMap(identity)
		for _, k := range keys {
			if compute {
				m.ComputeIfAbsent(k)
			} else {
				m.Put(k)
			}
		}
		return m.Keys()
	}
	assert.Equal(t, ints(33, 17, 1), run(true, ints(1, 17, 33)))
	assert.Equal(t, ints(1, 17, 33), run(false, ints(1, 17, 33)))
	thirteen := ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16)
	assert.Equal(t, ints(16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), run(true, thirteen), "13 > 12 but no resize yet")
	assert.Equal(t, ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16), run(false, thirteen))
	multiples := func(n int) []int32 {
		var out []int32
		for i := range n {
			out = append(out, int32(i*16))
		}
		return out
	}
	assert.Equal(t, ints(96, 80, 64, 48, 32, 16, 0), run(true, multiples(7)))
	assert.Equal(t, ints(96, 64, 32, 0, 112, 80, 48, 16), run(true, multiples(8)))
	assert.Equal(t, ints(0, 16, 32, 48, 64, 80, 96, 112), run(false, multiples(8)))
	assert.Equal(t, ints(128, 96, 64, 32, 0, 112, 80, 48, 16), run(true, multiples(9)))
	assert.Equal(t, ints(0, 32, 64, 96, 128, 16, 48, 80, 112), run(false, multiples(9)))
	assert.Equal(t, ints(128, 96, 64, 32, 0, 144, 112, 80, 48, 16), run(true, multiples(10)))

	// new HashMap<>(6) has 8 buckets; the eighth computeIfAbsent finds 7 > 6
	// and doubles the table first, even for a key already there.
	m := NewJavaHashMapCapacity(identity, 6)
	for _, k := range ints(7, 0, 1, 2, 3, 5, 8) {
		m.ComputeIfAbsent(k)
	}
	assert.Equal(t, ints(8, 0, 1, 2, 3, 5, 7), m.Keys())
	assert.False(t, m.ComputeIfAbsent(1))
	assert.Equal(t, ints(0, 1, 2, 3, 5, 7, 8), m.Keys())
}

func TestJavaTableSizeFor(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 1, 2: 2, 3: 4, 5: 8, 16: 16, 17: 32} {
		assert.Equal(t, want, javaTableSizeFor(n), "tableSizeFor(%d)", n)
	}
	m := NewJavaHashMapCapacity(func(k int32) int32 { return k }, 2)
	m.Put(0)
	m.Put(1) // 2 > (int) (2 * 0.75f) = 1: the table doubles
	assert.Equal(t, 4, m.Capacity())
}

// testdata/javahashmap_openjdk17.txt.gz records OpenJDK 17 running puts,
// computeIfAbsents and removes of keys that share String.hashCode (blocks
// of Aa and BB) on a HashMap<String, _>, with its keySet() after each: the
// buckets grow into red-black trees, are split, shrink back to lists. The
// table must iterate the same after every step.
func TestJavaHashMapTreesMatchOpenJDK(t *testing.T) {
	f, err := os.Open("testdata/javahashmap_openjdk17.txt.gz")
	require.NoError(t, err)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	require.NoError(t, err)
	sc := bufio.NewScanner(gz)
	sc.Buffer(nil, 1<<20)
	var m *JavaHashMap[string]
	steps, trees := 0, 0
	for line := 1; sc.Scan(); line++ {
		if sc.Text() == "new" {
			m = NewJavaHashMap(JavaHashCode)
			continue
		}
		op, want, _ := strings.Cut(sc.Text(), " | ")
		verb, key, _ := strings.Cut(op, " ")
		switch verb {
		case "put":
			m.Put(key)
		case "cia":
			m.ComputeIfAbsent(key)
		case "rem":
			m.Remove(key)
		}
		require.Equal(t, strings.Fields(want), m.Keys(), "line %d: %s", line, op)
		steps++
		if m.bins != nil && slices.Contains(m.bins.tree, true) {
			trees++
		}
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, trees, steps/4, "most steps run with a tree bucket")
}
