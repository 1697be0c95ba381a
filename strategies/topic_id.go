package strategies

import (
	"cmp"
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
)

// TopicID is a topic's Kafka Uuid (org.apache.kafka.common.Uuid): 128 bits,
// written as 22 characters of URL-safe base64 without padding. The share
// assignor's results depend on it: Kafka keys its maps of partitions by
// TopicIdPartition, whose hashCode mixes in Uuid.hashCode, so the order it
// iterates partitions in follows the topic ids.
type TopicID struct{ MSB, LSB uint64 }

// Kafka never gives a topic one of its reserved ids (Uuid.RESERVED).
var (
	zeroTopicID = TopicID{}
	oneTopicID  = TopicID{0, 1} // Uuid.ONE_UUID, also METADATA_TOPIC_ID
)

// reservedTopicID names id if Kafka reserves it (a switch, not a map:
// nothing to build at start-up).
func reservedTopicID(id TopicID) (string, bool) {
	switch id {
	case zeroTopicID:
		return "Uuid.ZERO_UUID", true
	case oneTopicID:
		return "Uuid.ONE_UUID (the metadata topic's id)", true
	}
	return "", false
}

// ParseTopicID reads a Uuid as Uuid.fromString does: URL-safe base64 of 16
// bytes (22 characters, or 24 ending "=="). Reserved ids are refused: no
// topic has one.
func ParseTopicID(s string) (TopicID, error) {
	raw := strings.TrimSuffix(s, "==")
	if len(raw) != 22 {
		return TopicID{}, fmt.Errorf("%q is not a Kafka topic id: want 22 characters of URL-safe base64 (16 bytes), like MkZ0Wr0bTXqCW3qLP7Ye4Q", s)
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || len(b) != 16 {
		return TopicID{}, fmt.Errorf("%q is not a Kafka topic id: it is not URL-safe base64 (A-Z, a-z, 0-9, - and _)", s)
	}
	id := TopicID{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
	if name, ok := reservedTopicID(id); ok {
		return TopicID{}, fmt.Errorf("%q is %s, which Kafka reserves: no topic has it", s, name)
	}
	return id, nil
}

// String is Uuid.toString: URL-safe base64 without padding.
func (id TopicID) String() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], id.MSB)
	binary.BigEndian.PutUint64(b[8:], id.LSB)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// HashCode is Uuid.hashCode: the two halves of msb ^ lsb, xored.
func (id TopicID) HashCode() int32 {
	x := id.MSB ^ id.LSB
	return int32(uint32(x>>32) ^ uint32(x))
}

// NameTopicID is the id kviz gives a topic whose id the input does not say:
// java.util.UUID.nameUUIDFromBytes of its name in UTF-8 (an MD5, version 3
// name-based UUID) as a Kafka Uuid. Deterministic, so the same input gives
// the same answer, and reproducible in Java; a real cluster's ids are random.
func NameTopicID(name string) TopicID {
	sum := md5.Sum([]byte(name))
	sum[6] = sum[6]&0x0f | 0x30
	sum[8] = sum[8]&0x3f | 0x80
	return TopicID{binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:])}
}

// TopicIDOf is topic's id in g: the one g.TopicIDs gives, else NameTopicID.
func (g Group) TopicIDOf(topic string) TopicID {
	if id, ok := g.TopicIDs[topic]; ok {
		return id
	}
	return NameTopicID(topic)
}

// topicPartitionHash is TopicIdPartition.hashCode for the record
// (Uuid topicId, int partitionId): 31·topicId.hashCode() + partitionId.
func topicPartitionHash(topicHash, partition int32) int32 { return 31*topicHash + partition }

// compare is Uuid.compareTo: the most, then the least significant bits, as
// signed longs.
func (id TopicID) compare(o TopicID) int {
	if c := cmp.Compare(int64(id.MSB), int64(o.MSB)); c != 0 {
		return c
	}
	return cmp.Compare(int64(id.LSB), int64(o.LSB))
}
