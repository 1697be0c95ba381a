package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
	"github.com/kvizlab/kviz/strategies"
)

// Who holds which records: each share-partition's offsets after a step as
// runs of one state (AVAILABLE, ACQUIRED by one member under one lock,
// ACKNOWLEDGED, ARCHIVED), with the words the lab's grid and `kviz
// simulate`'s text both print ("c1 ▮▮▮ 3–5 (lock 28.0 s)  ready 6–9").

// ShareRecords is one share-partition's records after a step.
type ShareRecords struct {
	TP     kafka.TP
	Start  int64 // share-partition start offset (SPSO): every offset below is done
	End    int64 // share-partition end offset (SharePartition.endOffset)
	LogEnd int64 // the partition's log end offset
	// Limit is the delivery count limit (share.delivery.count.limit), Cap
	// the in-flight cap (group.share.partition.max.record.locks).
	Limit, Cap int32
	// Runs cover Start..LogEnd-1 in offset order: the in-flight records,
	// then the records in the log never acquired yet.
	Runs []ShareRun
}

// ShareRun is a stretch of offsets in one state: for ACQUIRED, one
// member's records under locks that time out together.
type ShareRun struct {
	First, Last int64 // offsets, inclusive
	State       sharepart.State
	Member      string // ACQUIRED: the member holding them
	DeadlineMs  int64  // ACQUIRED: when their acquisition lock times out
	LockLeftMs  int64  // ACQUIRED: DeadlineMs less the step's time
	// MinDeliveries and MaxDeliveries are the run's delivery counts (0 for
	// records never acquired).
	MinDeliveries, MaxDeliveries int32
	// Fresh: in the log past the in-flight records, never acquired
	// (AVAILABLE, delivery count 0). Waiting: fresh, and the in-flight cap
	// keeps them from the next fetch.
	Fresh, Waiting bool
}

// Count is the number of records in the run.
func (r ShareRun) Count() int64 { return r.Last - r.First + 1 }

// ShareRecords is step i's share-partitions as runs (share groups only;
// nil otherwise), in topic and partition order.
func (s *Sim) ShareRecords(i int) []ShareRecords {
	i = s.clamp(i)
	sh := s.sc.Share
	if sh == nil {
		return nil
	}
	views := s.steps[i].g.shares
	if len(views) == 0 {
		return nil
	}
	now := s.steps[i].at
	out := make([]ShareRecords, len(views))
	for k, v := range views {
		out[k] = shareRecordsOf(v, now, sh.DeliveryCountLimit, sh.MaxRecordLocks)
	}
	return out
}

// ChangedShareRecords is the share-partitions of after whose records
// differ from before's (new ones too): their runs, offsets or cap; a lock's
// time left running down is no change.
func ChangedShareRecords(before, after []ShareRecords) []ShareRecords {
	var out []ShareRecords
	for _, a := range after {
		k := slices.IndexFunc(before, func(b ShareRecords) bool { return b.TP == a.TP })
		if k < 0 || !sameRecords(before[k], a) {
			out = append(out, a)
		}
	}
	return out
}

func sameRecords(a, b ShareRecords) bool {
	return a.Start == b.Start && a.End == b.End && a.LogEnd == b.LogEnd && a.Limit == b.Limit && a.Cap == b.Cap &&
		slices.EqualFunc(a.Runs, b.Runs, func(x, y ShareRun) bool {
			x.LockLeftMs, y.LockLeftMs = 0, 0
			return x == y
		})
}

func shareRecordsOf(v SharePartitionView, now int64, limit, cap int32) ShareRecords {
	out := ShareRecords{TP: v.TP, Start: v.Start, End: v.End, LogEnd: v.LogEnd, Limit: limit, Cap: cap}
	for _, r := range v.Records {
		if n := len(out.Runs); n > 0 {
			last := &out.Runs[n-1]
			if last.State == r.State && last.Member == r.Member && last.DeadlineMs == r.DeadlineMs && last.Last+1 == r.Offset &&
				// A redelivery never shares a run with a first delivery:
				// "ready again" and "ready" read differently.
				(r.State != sharepart.Available || (last.MinDeliveries > 0) == (r.Deliveries > 0)) {
				last.Last = r.Offset
				last.MinDeliveries, last.MaxDeliveries = min(last.MinDeliveries, r.Deliveries), max(last.MaxDeliveries, r.Deliveries)
				continue
			}
		}
		run := ShareRun{First: r.Offset, Last: r.Offset, State: r.State, MinDeliveries: r.Deliveries, MaxDeliveries: r.Deliveries}
		if r.State == sharepart.Acquired {
			run.Member, run.DeadlineMs, run.LockLeftMs = r.Member, r.DeadlineMs, max(r.DeadlineMs-now, 0)
		}
		out.Runs = append(out.Runs, run)
	}
	if next := v.Start + int64(len(v.Records)); next < v.LogEnd {
		out.Runs = append(out.Runs, ShareRun{First: next, Last: v.LogEnd - 1, State: sharepart.Available, Fresh: true, Waiting: v.Capped})
	}
	return out
}

// ShareWord is one piece of a share-partition's line: Long on a wide
// screen, Short where room is scarce; Member is the holder an ACQUIRED
// run's words name ("" for the others), for the lab to colour.
type ShareWord struct {
	Member      string
	Long, Short string
}

// Name is the share-partition as the narration names it: "t0-1".
func (sr ShareRecords) Name() string { return sr.TP.Topic + "-" + strconv.Itoa(int(sr.TP.Partition)) }

// Words are the share-partition's line after its name, in offset order:
// "start 3", then a word per run ("c1 ▮▮▮ 3–5 (lock 28.0 s)", "ready
// 6–9"), or that nothing is left to deliver.
func (sr ShareRecords) Words() []ShareWord {
	start := "start " + strconv.FormatInt(sr.Start, 10)
	out := []ShareWord{{Long: start, Short: start}}
	if len(sr.Runs) == 0 {
		return append(out, ShareWord{Long: "nothing in flight or waiting", Short: "nothing left"})
	}
	for _, r := range sr.Runs {
		out = append(out, sr.word(r))
	}
	return out
}

// Line is the share-partition's name and long words, two spaces apart:
// what `kviz simulate` prints and the lab shows when it fits.
func (sr ShareRecords) Line() string {
	parts := []string{sr.Name()}
	for _, w := range sr.Words() {
		parts = append(parts, w.Long)
	}
	return strings.Join(parts, "  ")
}

func (sr ShareRecords) word(r ShareRun) ShareWord {
	span := offsetRange(r.First, r.Last)
	switch {
	case r.State == sharepart.Acquired:
		note := "lock " + lockLeft(r.LockLeftMs)
		if r.MaxDeliveries > 1 {
			note += ", " + sr.deliveries(r, "delivery")
		}
		return ShareWord{Member: r.Member, Long: fmt.Sprintf("%s %s %s (%s)", r.Member, bars(r.Count()), span, note), Short: r.Member + " " + span}
	case r.Waiting:
		return ShareWord{Long: fmt.Sprintf("waiting %s (in-flight cap %d)", span, sr.Cap), Short: "capped " + span}
	case r.Fresh || (r.State == sharepart.Available && r.MaxDeliveries == 0):
		return ShareWord{Long: "ready " + span, Short: "ready " + span}
	case r.State == sharepart.Available:
		return ShareWord{Long: fmt.Sprintf("ready %s (%s)", span, sr.deliveries(r, "delivered")), Short: "ready " + span}
	case r.State == sharepart.Acknowledged:
		return ShareWord{Long: "acknowledged " + span, Short: "acked " + span}
	}
	return ShareWord{Long: fmt.Sprintf("archived %s (%s)", span, sr.deliveries(r, "delivered")), Short: "archived " + span}
}

// deliveries is the run's delivery count against the limit: "delivery 2
// of 5" (acquired) or "delivered 1–2 of 5".
func (sr ShareRecords) deliveries(r ShareRun, word string) string {
	n := strconv.Itoa(int(r.MinDeliveries))
	if r.MaxDeliveries != r.MinDeliveries {
		n += "–" + strconv.Itoa(int(r.MaxDeliveries))
	}
	return fmt.Sprintf("%s %s of %d", word, n, sr.Limit)
}

// maxBars is the most records drawn one block each; a longer run says its
// count ("▮×500").
const maxBars = 8

func bars(n int64) string {
	if n <= maxBars {
		return strings.Repeat("▮", int(n))
	}
	return "▮×" + strconv.FormatInt(n, 10)
}

// lockLeft is a lock's time left, cut (never rounded up) to what reads
// at a glance: "2 ms", "28.4 s".
func lockLeft(ms int64) string {
	if ms < 1000 {
		return strconv.FormatInt(ms, 10) + " ms"
	}
	return fmt.Sprintf("%d.%d s", ms/1000, ms%1000/100)
}

// ShareVariantOf is the row of a share group's compare variants
// (ShareVariants, oldest release first) that runs the scenario's release
// family: the last whose release the scenario's is at least (4.1.1 is the
// 4.1 row, 4.3 the 4.2+ one); -1 for a group that is not a share group
// or rows that are not releases.
func ShareVariantOf(sc *scenario.Scenario, vs []Variant) int {
	if !scenario.IsShare(sc) {
		return -1
	}
	v, at := sc.KafkaVersion.OrLatest(), -1
	for i, x := range vs {
		r := x.KafkaVersion
		if r == (strategies.ClientVersion{}) {
			return -1
		}
		if v.AtLeast(r.Major, r.Minor, r.Patch) {
			at = i
		}
	}
	return at
}
