package model

import "encoding/json"

// MarshalJSON writes a step as `kviz simulate --format jsonl` documents it:
// member_epochs and target appear under the consumer protocol only, and
// always there (an empty group has {}), so scripts can rely on them.
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step // no methods: no recursion
	if !s.consumer {
		return json.Marshal(plain(s))
	}
	epochs, target := s.MemberEpochs, s.Target
	if epochs == nil {
		epochs = map[string]int32{}
	}
	if target == nil {
		target = map[string]map[string][]int32{}
	}
	return json.Marshal(struct {
		plain
		MemberEpochs map[string]int32              `json:"member_epochs"`
		Target       map[string]map[string][]int32 `json:"target"`
	}{plain(s), epochs, target})
}
