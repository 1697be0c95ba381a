package strategies

import "sort"

// memberOrder stands in for the general algorithm's TreeSet of members,
// ordered by (partitions held, member id). Kafka walks that set from the
// start to find the first member subscribed to a topic; with hundreds of
// members that walk dominates, so members with the same subscription (and
// rack) share one heap, and "first subscriber of t" is the best root among
// the heaps of t's subscribers. The answer is the same member the walk finds.
type memberOrder struct {
	count []int // partitions held per member (owned by the builder)
	rank  []int // position of the member id in Java String order

	classOf      []int
	heaps        [][]int // per class: a binary min-heap of members
	pos          []int   // member -> index in its heap, -1 when not in the set
	classRack    []string
	topicClasses [][]int // topic -> classes subscribed to it

	hist     []int // hist[c] = members in the set holding c partitions
	size     int
	min, max int
}

func newMemberOrder(in *stickyInput, count []int, rack func(m int) string) *memberOrder {
	n := len(in.members)
	o := &memberOrder{count: count, rank: make([]int, n), classOf: make([]int, n), pos: make([]int, n)}
	byID := make([]int, n)
	for i := range byID {
		byID[i] = i
	}
	sort.Slice(byID, func(a, b int) bool { return JavaLess(in.ids[byID[a]], in.ids[byID[b]]) })
	for r, m := range byID {
		o.rank[m] = r
	}
	classes := map[string]int{}
	o.topicClasses = make([][]int, len(in.topics))
	for m := range in.members {
		key := string(bitsetBytes(in.subBits[m])) + "\x00" + rack(m)
		c, ok := classes[key]
		if !ok {
			c = len(o.heaps)
			classes[key] = c
			o.heaps = append(o.heaps, nil)
			o.classRack = append(o.classRack, rack(m))
			for _, t := range in.subscribed[m] {
				o.topicClasses[t] = append(o.topicClasses[t], c)
			}
		}
		o.classOf[m] = c
		o.pos[m] = -1
	}
	o.hist = make([]int, in.numP+2)
	return o
}

func (o *memberOrder) less(a, b int) bool {
	if o.count[a] != o.count[b] {
		return o.count[a] < o.count[b]
	}
	return o.rank[a] < o.rank[b]
}

// add puts m into the set with its current count.
func (o *memberOrder) add(m int) {
	c := o.classOf[m]
	o.heaps[c] = append(o.heaps[c], m)
	o.pos[m] = len(o.heaps[c]) - 1
	o.up(c, o.pos[m])
	o.histAdd(o.count[m])
}

// remove takes m out of the set; call before changing its count.
func (o *memberOrder) remove(m int) {
	i := o.pos[m]
	if i < 0 {
		return
	}
	c := o.classOf[m]
	h := o.heaps[c]
	last := len(h) - 1
	o.swap(c, i, last)
	o.heaps[c] = h[:last]
	o.pos[m] = -1
	if i < last {
		o.down(c, i)
		o.up(c, i)
	}
	o.histRemove(o.count[m])
}

// inc gives m one more partition and moves it to its new place in the set.
func (o *memberOrder) inc(m int) {
	o.histRemove(o.count[m])
	o.count[m]++
	o.histAdd(o.count[m])
	o.down(o.classOf[m], o.pos[m])
}

// dec takes one partition from m and moves it to its new place in the set.
func (o *memberOrder) dec(m int) {
	o.histRemove(o.count[m])
	o.count[m]--
	o.histAdd(o.count[m])
	o.up(o.classOf[m], o.pos[m])
}

// firstFor returns the first member of the set subscribed to topic t for
// which ok(class rack) holds (nil = any), or -1.
func (o *memberOrder) firstFor(t int, ok func(rack string) bool) int {
	best := -1
	for _, c := range o.topicClasses[t] {
		if len(o.heaps[c]) == 0 || (ok != nil && !ok(o.classRack[c])) {
			continue
		}
		if root := o.heaps[c][0]; best < 0 || o.less(root, best) {
			best = root
		}
	}
	return best
}

// minCountFor is the fewest partitions any set member subscribed to t holds
// among classes passing ok; -1 if none.
func (o *memberOrder) minCountFor(t int, ok func(rack string) bool) int {
	m := o.firstFor(t, ok)
	if m < 0 {
		return -1
	}
	return o.count[m]
}

func (o *memberOrder) swap(c, i, j int) {
	h := o.heaps[c]
	h[i], h[j] = h[j], h[i]
	o.pos[h[i]] = i
	o.pos[h[j]] = j
}

func (o *memberOrder) up(c, i int) {
	h := o.heaps[c]
	for i > 0 {
		p := (i - 1) / 2
		if !o.less(h[i], h[p]) {
			return
		}
		o.swap(c, i, p)
		i = p
	}
}

func (o *memberOrder) down(c, i int) {
	h := o.heaps[c]
	for {
		l, best := 2*i+1, i
		if l < len(h) && o.less(h[l], h[best]) {
			best = l
		}
		if r := l + 1; r < len(h) && o.less(h[r], h[best]) {
			best = r
		}
		if best == i {
			return
		}
		o.swap(c, i, best)
		i = best
	}
}

func (o *memberOrder) histAdd(c int) {
	o.hist[c]++
	o.size++
	if o.size == 1 || c < o.min {
		o.min = c
	}
	if o.size == 1 || c > o.max {
		o.max = c
	}
}

func (o *memberOrder) histRemove(c int) {
	o.hist[c]--
	o.size--
	if o.size == 0 {
		return
	}
	for o.hist[o.min] == 0 {
		o.min++
	}
	for o.hist[o.max] == 0 {
		o.max--
	}
}

// minMax returns the counts of the set's first and last members.
func (o *memberOrder) minMax() (int, int) { return o.min, o.max }
