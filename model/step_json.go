package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
)

// MarshalJSON writes a step as `kviz simulate --format jsonl` documents it:
// assignment_epoch, member_epochs, member_states and target appear under the
// consumer protocol only, and always there (an empty group has {}), so
// scripts can rely on them.
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step // no methods: no recursion
	if !s.consumer {
		return json.Marshal(plain(s))
	}
	epochs, states, target := s.MemberEpochs, s.MemberStates, s.Target
	if epochs == nil {
		epochs = map[string]int32{}
	}
	if states == nil {
		states = map[string]kafka.MemberState{}
	}
	if target == nil {
		target = map[string]map[string][]int32{}
	}
	return json.Marshal(struct {
		plain
		AssignmentEpoch int32                         `json:"assignment_epoch"`
		MemberEpochs    map[string]int32              `json:"member_epochs"`
		MemberStates    map[string]kafka.MemberState  `json:"member_states"`
		Target          map[string]map[string][]int32 `json:"target"`
		SharePartitions sharePartsJSON                `json:"share_partitions,omitempty"`
	}{plain(s), s.AssignmentEpoch, epochs, states, target, sharePartsOf(s.SharePartitions)})
}

// AppendStepJSON appends step i as json.Marshal(s.Step(i)) writes it, byte
// for byte, without building Step's maps: `kviz simulate --format jsonl`
// writes every member's partitions on every step, millions of numbers for
// a thousand-member group, and the maps and reflection cost far more than
// the writing.
func (s *Sim) AppendStepJSON(b []byte, i int) []byte {
	st := s.StepLine(i)
	members, g := s.members(st.Index), s.steps[st.Index].g
	b = appendStepHead(b, st)
	if st.Error != "" {
		b = appendJSONField(b, "error", st.Error)
	}
	b = append(b, `,"owned":`...)
	b = appendMemberSets(b, ownedSets(members))
	var lag, readers []byte
	if fv := s.flow(st.Index); fv != nil {
		if m := lagMap(fv); len(m) > 0 {
			lag, _ = json.Marshal(m) // producers' scenarios only: small
		}
		if m := readersMap(fv); len(m) > 0 {
			readers, _ = json.Marshal(m)
		}
	}
	if st.consumer { // lag first: the plain Step's fields come before MarshalJSON's
		b = appendRaw(b, "lag", lag)
		b = appendRaw(b, "readers", readers)
		epochs, targets := consumerSets(members, g.away, s.targets(st.Index))
		b = append(b, `,"assignment_epoch":`...)
		b = strconv.AppendInt(b, int64(g.assignEpoch), 10)
		b = append(b, `,"member_epochs":{`...)
		for k, e := range epochs {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, e.name)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(e.epoch), 10)
		}
		b = append(b, `},"member_states":{`...)
		for k, e := range epochs {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, e.name)
			b = append(b, ':')
			b = appendJSONString(b, string(e.state))
		}
		b = append(b, `},"target":`...)
		b = appendMemberSets(b, targets)
		if sp := sharePartsOf(g.shares); sp != nil { // a share group (share_json.go)
			raw, _ := json.Marshal(sp)
			b = appendRaw(b, "share_partitions", raw)
		}
	} else {
		b = appendRaw(b, "lag", lag)
		b = appendRaw(b, "readers", readers)
	}
	return append(b, '}')
}

// appendStepHead opens a step's line with the step's own fields, step to
// leader, as every JSONL line (full or of changes) starts.
func appendStepHead(b []byte, st Step) []byte {
	b = append(b, `{"step":`...)
	b = strconv.AppendInt(b, int64(st.Index), 10)
	b = append(b, `,"time_ms":`...)
	b = strconv.AppendInt(b, st.TimeMs, 10)
	b = appendJSONField(b, "kind", string(st.Kind))
	b = appendJSONField(b, "member", st.Member)
	b = appendJSONField(b, "text", st.Text)
	b = appendJSONField(b, "group_state", string(st.GroupState))
	b = append(b, `,"generation":`...)
	b = strconv.AppendInt(b, int64(st.Generation), 10)
	return appendJSONField(b, "leader", st.Leader)
}

// appendMemberSets writes {"c1":{"t0":[0,1]},...} as json writes kafka.TPMap's maps.
func appendMemberSets(b []byte, sets []memberSet) []byte {
	b = append(b, '{')
	for k, m := range sets {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, m.name)
		b = append(b, ':')
		b = appendTPSet(b, m.tps)
	}
	return append(b, '}')
}

// appendTPSet writes kafka.TPMap(tps) as json does: topics in byte order, each
// topic's partitions in list order. The list is read once, as runs of one
// topic: a member of a thousand topics is not a scan per topic.
func appendTPSet(b []byte, tps []kafka.TP) []byte {
	b = append(b, '{')
	if len(tps) > 0 && oneTopic(tps) { // the usual set: no runs to sort
		b = appendTopicRun(b, tps[0].Topic, tps)
		return append(b, '}')
	}
	type run struct{ from, to int }
	var runs []run
	for i := 0; i < len(tps); {
		j := i + 1
		for j < len(tps) && tps[j].Topic == tps[i].Topic {
			j++
		}
		runs = append(runs, run{i, j})
		i = j
	}
	slices.SortStableFunc(runs, func(x, y run) int { return strings.Compare(tps[x.from].Topic, tps[y.from].Topic) })
	for k := 0; k < len(runs); {
		t := tps[runs[k].from].Topic
		if k > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, t)
		b = append(b, ":["...)
		for n := 0; k < len(runs) && tps[runs[k].from].Topic == t; k++ {
			for _, tp := range tps[runs[k].from:runs[k].to] {
				if n > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(tp.Partition), 10)
				n++
			}
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendTopicRun writes "t":[p,...] for partitions all of topic t.
func appendTopicRun(b []byte, t string, tps []kafka.TP) []byte {
	b = appendJSONString(b, t)
	b = append(b, ":["...)
	for n, tp := range tps {
		if n > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(tp.Partition), 10)
	}
	return append(b, ']')
}

func oneTopic(tps []kafka.TP) bool {
	for _, tp := range tps[1:] {
		if tp.Topic != tps[0].Topic {
			return false
		}
	}
	return true
}

func appendJSONField(b []byte, name, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendJSONString(b, value)
}

func appendRaw(b []byte, name string, raw []byte) []byte {
	if raw == nil {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return append(b, raw...)
}

// appendJSONString writes s as encoding/json does (HTML-safe escapes,
// invalid UTF-8 replaced); plain ASCII, the usual id or topic, directly.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
