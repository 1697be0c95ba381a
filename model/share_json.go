package model

import (
	"encoding/json"
	"strconv"

	"github.com/kvizlab/kviz/model/sharepart"
)

// sharePartsJSON is JSONL's share_partitions: topic -> partition ->
// the share-partition's offsets and in-flight records.
type sharePartsJSON map[string]map[string]sharePartJSON

type sharePartJSON struct {
	Start   int64             `json:"start"`
	End     int64             `json:"end"`
	LogEnd  int64             `json:"log_end"`
	Capped  bool              `json:"capped,omitempty"`
	Records []shareRecordJSON `json:"records"`
}

type shareRecordJSON struct {
	Offset     int64  `json:"offset"`
	State      string `json:"state"`
	Member     string `json:"member,omitempty"`
	DeadlineMs int64  `json:"deadline_ms,omitempty"`
	Deliveries int32  `json:"deliveries"`
}

// sharePartsOf is the JSON of a step's share-partitions; nil without any
// (every step of a share group after its first share-partition has them).
func sharePartsOf(views []SharePartitionView) sharePartsJSON {
	if len(views) == 0 {
		return nil
	}
	out := sharePartsJSON{}
	for _, v := range views {
		t := out[v.TP.Topic]
		if t == nil {
			t = map[string]sharePartJSON{}
			out[v.TP.Topic] = t
		}
		recs := make([]shareRecordJSON, len(v.Records))
		for i, r := range v.Records {
			recs[i] = shareRecordJSON{Offset: r.Offset, State: r.State.String(), Deliveries: r.Deliveries}
			if r.State == sharepart.Acquired {
				recs[i].Member, recs[i].DeadlineMs = r.Member, r.DeadlineMs
			}
		}
		t[strconv.Itoa(int(v.TP.Partition))] = sharePartJSON{Start: v.Start, End: v.End, LogEnd: v.LogEnd, Capped: v.Capped, Records: recs}
	}
	return out
}

// sharesJSON is step i's share_partitions as the full line writes it (nil
// when it has none).
func (s *Sim) sharesJSON(i int) []byte {
	sp := sharePartsOf(s.steps[s.clamp(i)].g.shares)
	if sp == nil {
		return nil
	}
	b, _ := json.Marshal(sp)
	return b
}
