package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/kvizlab/kviz/strategies"
)

// The input of `kviz assign` (a contract: other tools write it):
//
//	{"topics": {"t0": 3, "t1": 2},
//	 "partition_racks": {"t0": [["r1","r2"], ["r2","r3"], ["r3","r1"]]},
//	 "members": [{"id": "c0", "topics": ["t0","t1"], "owned": {"t0": [0]},
//	              "generation": 3, "rack": "r1", "instance": "i0"}]}
//
// Only "members" and each member's "id" are required. A member without
// "topics" subscribes to every topic; "topics": [] subscribes to none.

// maxTotalPartitions bounds the whole group: Kafka's largest clusters hold
// a few million partitions, and beyond this kviz would only run out of memory.
const maxTotalPartitions = 1 << 22

type assignInput struct {
	Topics         map[string]int64      `json:"topics"`
	PartitionRacks map[string][][]string `json:"partition_racks"`
	Members        []assignMemberInput   `json:"members"`
}

type assignMemberInput struct {
	ID         string             `json:"id"`
	Topics     *[]string          `json:"topics"` // nil: every topic
	Owned      map[string][]int64 `json:"owned"`
	Generation *int32             `json:"generation"` // nil: no generation (-1)
	Rack       string             `json:"rack"`
	Instance   string             `json:"instance"`
}

// parseAssignInput decodes and checks the input. Every error is one line
// naming where the problem is: a line and column for JSON problems, the
// field path for values kviz cannot use.
func parseAssignInput(data []byte) (strategies.Group, error) {
	var in assignInput
	if err := decodeStrict(data, &in); err != nil {
		return strategies.Group{}, err
	}
	if in.Members == nil {
		return strategies.Group{}, errors.New(`"members" is missing: list the group's members`)
	}
	if len(in.Members) == 0 {
		return strategies.Group{}, errors.New(`"members" is empty: a group needs at least one member`)
	}
	g := strategies.Group{Topics: make(map[string]int32, len(in.Topics)), PartitionRacks: in.PartitionRacks}
	var total int64
	for _, t := range strategies.SortedTopics(in.Topics) {
		n := in.Topics[t]
		switch {
		case n < 0:
			return g, fmt.Errorf("topics: %q has a negative partition count (%d)", t, n)
		case n > strategies.MaxPartitions:
			return g, fmt.Errorf("topics: %q has %d partitions; at most %d are supported", t, n, strategies.MaxPartitions)
		}
		total += n
		g.Topics[t] = int32(n)
	}
	if total > maxTotalPartitions {
		return g, fmt.Errorf("topics: %d partitions in all; at most %d are supported", total, maxTotalPartitions)
	}
	allTopics := strategies.SortedTopics(g.Topics)
	g.Members = make([]strategies.Member, len(in.Members))
	for i, m := range in.Members {
		member, err := m.member(i, allTopics, g.Topics)
		if err != nil {
			return g, err
		}
		g.Members[i] = member
	}
	if err := g.Validate(); err != nil {
		return g, err
	}
	return g, nil
}

// member converts one member, catching what Group.Validate cannot see
// (values that do not fit, topics or partitions listed twice).
func (m assignMemberInput) member(i int, allTopics []string, counts map[string]int32) (strategies.Member, error) {
	where := fmt.Sprintf("members[%d] (%s)", i, m.ID)
	if m.ID == "" {
		where = fmt.Sprintf("members[%d]", i)
	}
	out := strategies.Member{ID: m.ID, InstanceID: m.Instance, Rack: m.Rack, Generation: strategies.NoGeneration}
	if m.Generation != nil {
		out.Generation = *m.Generation
	}
	if m.Topics == nil {
		out.Topics = allTopics
	} else {
		out.Topics = *m.Topics
		seen := make(map[string]bool, len(out.Topics))
		for _, t := range out.Topics {
			if seen[t] {
				return out, fmt.Errorf("%s: topic %q is listed twice", where, t)
			}
			seen[t] = true
		}
	}
	for _, t := range strategies.SortedTopics(m.Owned) {
		n, known := counts[t]
		ps := slices.Clone(m.Owned[t])
		slices.Sort(ps)
		for j, p := range ps {
			if !known {
				return out, fmt.Errorf("%s: owns a partition of unknown topic %q", where, t)
			}
			if p < 0 || p >= int64(n) {
				return out, fmt.Errorf("%s: owns %s-%d, but %q has partitions 0..%d", where, t, p, t, n-1)
			}
			if j > 0 && ps[j-1] == p {
				return out, fmt.Errorf("%s: owns %s-%d twice", where, t, p)
			}
			out.Owned = append(out.Owned, strategies.TopicPartition{Topic: t, Partition: int32(p)})
		}
	}
	return out, nil
}

// decodeStrict decodes exactly one JSON object with no unknown fields and
// turns encoding/json's errors into one line with a line and column.
func decodeStrict(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("the input is empty: expected a JSON object with \"topics\" and \"members\"")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(data, err)
	}
	end := dec.InputOffset()
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		line, col := lineCol(data, int64(len(data)-len(rest)))
		return fmt.Errorf("line %d, column %d: unexpected data after the JSON object", line, col)
	}
	return nil
}

var unknownFieldRE = regexp.MustCompile(`^json: unknown field "(.*)"$`)

func jsonError(data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line, col := lineCol(data, syntax.Offset)
		return fmt.Errorf("line %d, column %d: malformed JSON: %s", line, col, trimJSONPrefix(syntax.Error()))
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "the input"
		}
		return fmt.Errorf("line %d, column %d: %s: expected %s, got %s", line, col, field, describeType(typ.Type.String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := lineCol(data, int64(len(data)))
		return fmt.Errorf("line %d, column %d: malformed JSON: the input ends in the middle of a value", line, col)
	}
	if m := unknownFieldRE.FindStringSubmatch(err.Error()); m != nil {
		key, _ := json.Marshal(m[1])
		if off := findKey(data, key); off >= 0 {
			line, col := lineCol(data, int64(off))
			return fmt.Errorf("line %d, column %d: unknown field %s (known: topics, partition_racks, members; per member: id, topics, owned, generation, rack, instance)", line, col, key)
		}
		return fmt.Errorf("unknown field %s", key)
	}
	return fmt.Errorf("malformed JSON: %s", trimJSONPrefix(err.Error()))
}

// findKey returns the offset of the first occurrence of key used as an
// object key (followed by a colon), or -1.
func findKey(data, key []byte) int {
	for from := 0; ; {
		i := bytes.Index(data[from:], key)
		if i < 0 {
			return -1
		}
		at := from + i
		rest := bytes.TrimLeft(data[at+len(key):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return at
		}
		from = at + 1
	}
}

func describeType(t string) string {
	switch t {
	case "int64", "int32":
		return "a whole number"
	case "string":
		return "a string"
	case "[]string":
		return "a list of strings"
	case "[][]string":
		return "a list of replica rack lists"
	case "[]int64":
		return "a list of partition numbers"
	case "[]cli.assignMemberInput":
		return "a list of members"
	case "cli.assignMemberInput":
		return "a member object"
	case "cli.assignInput":
		return "a JSON object"
	}
	if len(t) > 4 && t[:4] == "map[" {
		return "an object"
	}
	return t
}

func trimJSONPrefix(s string) string {
	if len(s) > 6 && s[:6] == "json: " {
		return s[6:]
	}
	return s
}

// lineCol turns a byte offset into a 1-based line and column (in characters).
func lineCol(data []byte, offset int64) (int, int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line := bytes.Count(before, []byte{'\n'}) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[lineStart:]) + 1
}
