package model

import "strconv"

// sameOrNew converts one member's assignor result to a partition list,
// returning prev itself when it lists the same partitions: most members
// keep their target when one joins, and sharing the slice spares the
// allocation and lets snapshots share it too.
func sameOrNew(a map[string][]int32, prev []TP) []TP {
	if sameAsList(a, prev) {
		return prev
	}
	return tpsOf(a)
}

// sameAsList: a (topic -> ascending partitions) lists exactly prev, which
// is sorted by topic, then partition.
func sameAsList(a map[string][]int32, prev []TP) bool {
	if len(a) == 1 && len(prev) > 0 {
		// One topic (the usual group): one lookup, no map walk.
		t := prev[0].Topic
		ps := a[t]
		if len(ps) != len(prev) || prev[len(prev)-1].Topic != t {
			return false
		}
		for k, p := range ps {
			if prev[k].Partition != p {
				return false
			}
		}
		return true
	}
	n, topics := 0, 0
	for _, ps := range a {
		n += len(ps)
		if len(ps) > 0 {
			topics++
		}
	}
	if n != len(prev) {
		return false
	}
	for i := 0; i < len(prev); topics-- {
		ps := a[prev[i].Topic]
		if len(ps) == 0 || i+len(ps) > len(prev) {
			return false
		}
		for k, p := range ps {
			if prev[i+k].Topic != prev[i].Topic || prev[i+k].Partition != p {
				return false
			}
		}
		i += len(ps)
		if i < len(prev) && prev[i].Topic == prev[i-1].Topic {
			return false // prev holds more of this topic
		}
	}
	return topics == 0
}

// maxShown is how many partitions of one member a step's sentence names.
const maxShown = 12

// fmtShort names a member's partitions like fmtTPs, cutting a long list
// short: a trainer reads out a few, not ten thousand.
func fmtShort(tps []TP) string {
	if len(tps) <= maxShown {
		return fmtTPs(tps)
	}
	b := make([]byte, 0, 16*maxShown)
	b = append(b, '[')
	for _, tp := range tps[:maxShown-1] {
		b = appendTP(b, tp)
		b = append(b, ", "...)
	}
	b = append(b, "…, "...)
	b = appendTP(b, tps[len(tps)-1])
	b = append(b, "] ("...)
	b = strconv.AppendInt(b, int64(len(tps)), 10)
	b = append(b, " partitions)"...)
	return string(b)
}

// appendTP writes t0-3, as TopicPartition.String does.
func appendTP(b []byte, tp TP) []byte {
	b = append(b, tp.Topic...)
	b = append(b, '-')
	return strconv.AppendInt(b, int64(tp.Partition), 10)
}
