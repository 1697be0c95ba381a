package strategies

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFormatRuns(t *testing.T) {
	tp := func(topic string, p int32) TopicPartition { return TopicPartition{topic, p} }
	require.Equal(t, "", FormatRuns(nil, 0))
	require.Equal(t, "t0:0–2,5; t1:2", FormatRuns([]TopicPartition{tp("t0", 0), tp("t0", 1), tp("t0", 2), tp("t0", 5), tp("t1", 2)}, 0))
	// A topic that comes back starts again; runs never cross topics.
	require.Equal(t, "a:3; b:4; a:4", FormatRuns([]TopicPartition{tp("a", 3), tp("b", 4), tp("a", 4)}, 0))
	// Past maxRuns only the count: the third run (t1:0–1) is not written.
	require.Equal(t, "t0:0,2 … (5 partitions in all)", FormatRuns([]TopicPartition{tp("t0", 0), tp("t0", 2), tp("t1", 0), tp("t1", 1), tp("t1", 7)}, 2))
	require.Equal(t, "t0:0,2", FormatRuns([]TopicPartition{tp("t0", 0), tp("t0", 2)}, 2), "exactly maxRuns: nothing left out")
}

func TestSortTopicPartitionsJavaOrder(t *testing.T) {
	// Java compares UTF-16 units: U+FF5E sorts before U+1F600 in Go's byte
	// order but after it in Java's (the emoji is a surrogate pair, 0xD83D…).
	s := []TopicPartition{{"😀", 0}, {"～", 1}, {"a", 10}, {"a", 2}}
	SortTopicPartitions(s)
	require.Equal(t, []TopicPartition{{"a", 2}, {"a", 10}, {"😀", 0}, {"～", 1}}, s)
	require.Equal(t, "a-10", s[1].String())
}
