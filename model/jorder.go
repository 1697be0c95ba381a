package model

import (
	"sort"

	"github.com/kvizlab/kviz/strategies"
)

// javaOrder tracks the iteration order of a java.util.HashMap<String, ?>
// keyed by member id: buckets ascending, insertion order within a bucket,
// capacity 16 doubling whenever size > 0.75·capacity (it never shrinks).
// The coordinator picks "the next member" in this order when a leader goes.
type javaOrder struct {
	seq  map[string]uint64
	next uint64
	cap  int
}

func newJavaOrder() *javaOrder { return &javaOrder{seq: map[string]uint64{}, cap: 16} }

func (o *javaOrder) add(k string) {
	if _, ok := o.seq[k]; ok {
		return
	}
	o.next++
	o.seq[k] = o.next
	for len(o.seq)*4 > o.cap*3 {
		o.cap *= 2
	}
}

func (o *javaOrder) remove(k string) { delete(o.seq, k) }

func (o *javaOrder) bucket(k string) int {
	h := uint32(strategies.JavaHashCode(k))
	return int((h ^ (h >> 16)) & uint32(o.cap-1))
}

// keys returns the keys in iteration order.
func (o *javaOrder) keys() []string {
	out := make([]string, 0, len(o.seq))
	for k := range o.seq {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		bi, bj := o.bucket(out[i]), o.bucket(out[j])
		if bi != bj {
			return bi < bj
		}
		return o.seq[out[i]] < o.seq[out[j]]
	})
	return out
}
