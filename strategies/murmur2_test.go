package strategies

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/twmb/franz-go/pkg/kgo"
	"pgregory.net/rapid"
)

// Kafka's UtilsTest.testMurmur2 vectors, plus the empty key and KAFKA.md's "key1".
func TestMurmur2MatchesKafkaUtilsTest(t *testing.T) {
	cases := map[string]int32{
		"21":                         -973932308,
		"foobar":                     -790332482,
		"a-little-bit-long-string":   -985981536,
		"a-little-bit-longer-string": -1486304829,
		"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971,
		"abc": 479470107,
		"":    275646681,
	}
	for key, want := range cases {
		assert.Equal(t, want, Murmur2([]byte(key)), "murmur2(%q)", key)
	}
}

func TestToPositiveIsNotAbs(t *testing.T) {
	assert.Equal(t, int32(2147483647), ToPositive(-1))
	assert.Equal(t, int32(0), ToPositive(-2147483648))
	assert.Equal(t, int32(5), ToPositive(5))
}

// Seed example 16: "key1" with 6 partitions → 2.
func TestKeyPartitionKey1SixPartitions(t *testing.T) {
	r := RouteKey([]byte("key1"), 6)
	assert.Equal(t, int32(28543940), r.Murmur2)
	assert.Equal(t, 2, r.Partition)
	assert.Equal(t, 2, KeyPartition([]byte("key1"), 6))
	assert.Contains(t, r.Steps()[3], "28543940 % 6 partitions = 2")
}

// franz-go's StickyKeyPartitioner(nil) hashes keys exactly like Kafka's Java
// producer, so it is an independent oracle for any key and partition count.
func TestKeyPartitionAgreesWithFranzGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SliceOf(rapid.Byte()).Draw(t, "key")
		n := rapid.IntRange(1, 10000).Draw(t, "partitions")
		kp := kgo.StickyKeyPartitioner(nil).ForTopic("t")
		want := kp.Partition(&kgo.Record{Key: key}, n)
		got := KeyPartition(key, n)
		if got != want {
			t.Fatalf("key %x over %d: kviz %d, franz-go %d", key, n, got, want)
		}
		if got < 0 || got >= n {
			t.Fatalf("partition %d outside 0..%d", got, n-1)
		}
		if again := KeyPartition(append([]byte(nil), key...), n); again != got {
			t.Fatalf("same key, same count, different partition: %d then %d", got, again)
		}
	})
}

// benchPartitions is a variable so neither side divides by a constant the
// compiler could turn into a multiplication.
var benchPartitions = 12

func BenchmarkKeyPartitionKviz(b *testing.B) {
	key := []byte("customer-4711")
	sum := 0
	for b.Loop() {
		sum += KeyPartition(key, benchPartitions)
	}
	_ = sum
}

func BenchmarkKeyPartitionFranzGo(b *testing.B) {
	kp := kgo.StickyKeyPartitioner(nil).ForTopic("t")
	rec := &kgo.Record{Key: []byte("customer-4711")}
	sum := 0
	for b.Loop() {
		sum += kp.Partition(rec, benchPartitions)
	}
	_ = sum
}

// The whole partition choice for a keyed record (checks, key path, choice
// record), as the producer model calls it, against the same franz-go path.
func BenchmarkChooseKeyedBuiltIn(b *testing.B) {
	pt := ptNew(b, "default", "4.0", 1)
	rec := ProducerRecord{Key: []byte("customer-4711"), Partition: NoPartition}
	lay := ptLayout(12)
	sum := 0
	for b.Loop() {
		c, _ := pt.Choose(rec, lay, nil, nil)
		sum += c.Partition
	}
	_ = sum
}
