package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kafka 4.1's SimpleAssignorTest group (A hashes onto topic1-0, B onto
// topic1-1, the rest dealt round-robin), with the ids the input gives.
const shareTwo = `{"topics": {"topic1": 3, "topic3": 2},
 "topic_ids": {"topic1": "BVCRPWOJolzCvYje3c5gbg", "topic3": "nfwWvc6h-KGMhe96HRyPMg"},
 "members": [{"id": "A", "topics": ["topic1", "topic3"]}, {"id": "B", "topics": ["topic1", "topic3"]}]}`

func TestAssignSimplePerRelease(t *testing.T) {
	for version, want := range map[string]string{
		"4.0": `{"A": {"topic1": [0, 1, 2], "topic3": [0, 1]}, "B": {"topic1": [0, 1, 2], "topic3": [0, 1]}}`,
		"4.1": `{"A": {"topic1": [0, 2], "topic3": [1]}, "B": {"topic1": [1], "topic3": [0]}}`,
		// What Kafka 4.3's classes answer for these ids: the balanced builder
		// walks the partitions in TopicIdPartition hash order.
		"4.2": `{"A": {"topic1": [0], "topic3": [0, 1]}, "B": {"topic1": [1, 2]}}`,
	} {
		code, out, errOut := run(t, shareTwo, "assign", "--strategy", "simple", "--kafka-version", version, "--format", "json")
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, want+"\n", out, version)
		assert.Empty(t, errOut, "ids given: no note")
	}
}

func TestAssignSimpleNotesDerivedIDsAndExplainsArithmetic(t *testing.T) {
	in := `{"topics": {"t1": 2}, "members": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "simple", "--kafka-version", "4.2", "--format", "json", "--explain")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, `note: no "topic_ids" for t1: kviz derives each id from the name`)
	assert.Contains(t, errOut, "t1=g_FTX5mrO_Sp0C39hdPj9w") // java.util.UUID.nameUUIDFromBytes("t1")
	assert.Contains(t, errOut, "3 members on 2 initialised partitions: each partition wants ⌈3/2⌉ = 2 members; x = 2·2/3 = 1.333")
	// Several members may hold one partition: 4 assignments over 2 partitions.
	var a map[string]map[string][]int
	require.NoError(t, json.Unmarshal([]byte(out), &a))
	n := 0
	for _, topics := range a {
		n += len(topics["t1"])
	}
	assert.Equal(t, 4, n, out)
}

func TestAssignSimpleAssignable(t *testing.T) {
	in := `{"topics": {"topic1": 3, "topic3": 2}, "assignable": {"topic1": [2, 0, 1]},
	 "topic_ids": {"topic1": "BVCRPWOJolzCvYje3c5gbg", "topic3": "nfwWvc6h-KGMhe96HRyPMg"},
	 "members": [{"id": "A", "topics": ["topic1", "topic3"]}, {"id": "B", "topics": ["topic1", "topic3"]}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "simple", "--kafka-version", "4.1", "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"A": {"topic1": [1, 2]}, "B": {"topic1": [0]}}`+"\n", out)
	assert.Contains(t, errOut, `note: "assignable" does not list topic3: none of its share-partitions is initialised`)

	code, _, errOut = run(t, in, "assign", "--strategy", "simple", "--kafka-version", "4.0", "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, `"assignable" does not apply`)
}

// Kafka 4.1 throws when members share more of the current assignment than
// it can deal: every member full with partitions left.
func TestAssignSimpleKafkaThrowsIsExit1(t *testing.T) {
	in := `{"topics": {"t": 9}, "members": [
	 {"id": "A", "owned": {"t": [0,1,2,3,4,5,6,7,8]}},
	 {"id": "B", "owned": {"t": [0,1,2,3,4,5,6,7,8]}},
	 {"id": "C", "owned": {"t": [0,1,2,3,4,5,6,7,8]}}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "simple", "--kafka-version", "4.1")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "PartitionAssignorException")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(lastLine(errOut)), "\n")+1)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestAssignSimpleBadShareInput(t *testing.T) {
	for in, want := range map[string]string{
		`{"topics": {"t": 1}, "topic_ids": {"t": "nope"}, "members": [{"id": "a"}]}`:                                                          `line 1, column 41: topic_ids.t: "nope" is not a Kafka topic id`,
		`{"topics": {"t": 1}, "topic_ids": {"x": "BVCRPWOJolzCvYje3c5gbg"}, "members": [{"id": "a"}]}`:                                        `topic_ids.x: "x" is not in "topics" and no member owns partitions of it`,
		`{"topics": {"t": 1, "u": 1}, "topic_ids": {"t": "BVCRPWOJolzCvYje3c5gbg", "u": "BVCRPWOJolzCvYje3c5gbg"}, "members": [{"id": "a"}]}`: `topic_ids: "t" and "u" have the same id`,
		`{"topics": {"t": 1}, "topic_ids": {"t": "AAAAAAAAAAAAAAAAAAAAAA"}, "members": [{"id": "a"}]}`:                                        `Uuid.ZERO_UUID, which Kafka reserves`,
		`{"topics": {"t": 2}, "assignable": {"t": [0, 2]}, "members": [{"id": "a"}]}`:                                                         `assignable.t: "t" has partitions 0..1, so 2 is not one of them`,
		`{"topics": {"t": 2}, "assignable": {"t": [1, 1]}, "members": [{"id": "a"}]}`:                                                         `assignable.t: partition 1 is listed twice`,
		`{"topics": {"t": 2}, "assignable": {"x": [0]}, "members": [{"id": "a"}]}`:                                                            `assignable: unknown topic "x"`,
		`{"topics": {"t": 2}, "assignable": {"t": ["0"]}, "members": [{"id": "a"}]}`:                                                          `assignable.t[0]: expected a whole number, got string`,
	} {
		code, out, errOut := run(t, in, "assign", "--strategy", "simple")
		assert.Equal(t, 2, code, in)
		assert.Empty(t, out)
		assert.Contains(t, errOut, want, in)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "one line: %s", errOut)
	}
}

// A scenario or the lab cannot run the share assignor yet; kviz assign can.
func TestAssignSimpleBeforeShareGroupsIsRefused(t *testing.T) {
	code, _, errOut := run(t, shareTwo, "assign", "--strategy", "simple", "--kafka-version", "3.9")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "share groups (KIP-932) and their simple assignor appear in Kafka 4.0")
}

// The heterogeneous builder of 4.2+ visits subscribed topics only: a member
// keeps the partitions of a deleted topic, and the output names it.
func TestAssignSimpleKeepsDeletedTopicInHeterogeneousTarget(t *testing.T) {
	in := `{"topics": {"a": 1, "b": 1},
	 "members": [{"id": "m", "topics": ["a"], "owned": {"gone": [0]}}, {"id": "n", "topics": ["b"]}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "simple", "--kafka-version", "4.2")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"m": {"a": [0], "gone": [0]}, "n": {"b": [0]}}`+"\n", out)
	assert.Contains(t, errOut, `m owns gone-0, which does not exist: the heterogeneous builder (Kafka 4.2+) visits only subscribed topics`)
	code, out, _ = run(t, in, "assign", "--strategy", "simple", "--kafka-version", "4.1")
	require.Equal(t, 0, code)
	assert.Equal(t, `{"m": {"a": [0]}, "n": {"b": [0]}}`+"\n", out)
}

func TestAssignShareFieldsNoteOtherStrategiesIgnoreThem(t *testing.T) {
	code, out, errOut := run(t, shareTwo, "assign", "--strategy", "range", "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"A": {"topic1": [0, 1], "topic3": [0]}, "B": {"topic1": [2], "topic3": [1]}}`+"\n", out)
	assert.Equal(t, `note: "topic_ids" and "assignable" are read only by the share-group assignor (simple); range ignores them`+"\n", errOut)
}
