package model

import (
	"encoding/json"
	"slices"
	"strconv"

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
	}{plain(s), s.AssignmentEpoch, epochs, states, target})
}

// AppendStepJSON appends step i as json.Marshal(s.Step(i)) writes it, byte
// for byte, without building Step's maps: `kviz simulate --format jsonl`
// writes every member's partitions on every step, millions of numbers for
// a thousand-member group, and the maps and reflection cost far more than
// the writing.
func (s *Sim) AppendStepJSON(b []byte, i int) []byte {
	st := s.StepLine(i)
	members, g := s.members(st.Index), s.steps[st.Index].g
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
	b = appendJSONField(b, "leader", st.Leader)
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
	} else {
		b = appendRaw(b, "lag", lag)
		b = appendRaw(b, "readers", readers)
	}
	return append(b, '}')
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
// topic's partitions in list order.
func appendTPSet(b []byte, tps []kafka.TP) []byte {
	b = append(b, '{')
	if len(tps) > 0 && oneTopic(tps) { // the usual set: no topic list to build
		b = appendTopicPartitions(b, tps, tps[0].Topic)
	} else {
		for k, t := range topicsOf(tps) {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendTopicPartitions(b, tps, t)
		}
	}
	return append(b, '}')
}

// appendTopicPartitions writes "t":[p,...] for topic t's partitions in tps.
func appendTopicPartitions(b []byte, tps []kafka.TP, t string) []byte {
	b = appendJSONString(b, t)
	b = append(b, ":["...)
	n := 0
	for _, tp := range tps {
		if tp.Topic == t {
			if n > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(tp.Partition), 10)
			n++
		}
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

// topicsOf lists the topics of tps in byte order, each once. A set holds a
// topic or two, so a small slice beats a map.
func topicsOf(tps []kafka.TP) []string {
	var topics []string
	for i, tp := range tps {
		if (i == 0 || tp.Topic != tps[i-1].Topic) && !slices.Contains(topics, tp.Topic) {
			topics = append(topics, tp.Topic)
		}
	}
	slices.Sort(topics)
	return topics
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
