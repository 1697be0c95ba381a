package strategies

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kafka's orders and hashes are Java's. These helpers reproduce them so kviz
// gives the same answer as the JVM for any name, not just ASCII ones.

// JavaLess reports whether a < b under Java's String.compareTo, which compares
// UTF-16 code units. For ASCII and most of Unicode that is Go's byte order;
// it differs for characters above U+FFFF versus U+E000–U+FFFF.
func JavaLess(a, b string) bool { return JavaCompare(a, b) < 0 }

// JavaCompare is Java's String.compareTo, reduced to its sign.
//
// The common prefix is skipped byte by byte: where both strings go on in
// ASCII the first differing bytes decide, as their code units do (names
// like t042 and c0042 are compared this way hundreds of millions of times
// at Kafka's scale; BenchmarkJavaCompare). Anything else is decoded.
func JavaCompare(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	switch {
	case len(a) == len(b) && i == n:
		return 0
	case i == n:
		// One is the other's prefix: shorter first, unless the longer goes
		// on inside a character the prefix cut.
		long := a
		if len(b) > len(a) {
			long = b
		}
		if !utf8.RuneStart(long[i]) {
			return javaCompareRunes(a, b)
		}
		return cmp.Compare(len(a), len(b))
	case a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf:
		if a[i] < b[i] {
			return -1
		}
		return 1
	}
	return javaCompareRunes(a, b)
}

// javaCompareRunes is JavaCompare over decoded characters.
func javaCompareRunes(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUTF16(ra), firstUTF16(rb)
			if ua != ub {
				if ua < ub {
					return -1
				}
				return 1
			}
			// Same high surrogate: the low surrogates decide.
			la, lb := secondUTF16(ra), secondUTF16(rb)
			if la < lb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	default:
		return 1
	}
}

// JavaHashCode is Java's String.hashCode: h = 31*h + c over UTF-16 code
// units, wrapping at 32 bits.
func JavaHashCode(s string) int32 {
	// ASCII, four characters a step: h·31⁴ + c0·31³ + c1·31² + c2·31 + c3
	// wraps to the same int32 as four steps, with a quarter of the
	// multiplications in a chain. The uniform assignor hashes every member
	// id on every run.
	var h int32
	i := 0
	for ; i+4 <= len(s); i += 4 {
		c0, c1, c2, c3 := s[i], s[i+1], s[i+2], s[i+3]
		if (c0|c1|c2|c3)&0x80 != 0 {
			break
		}
		h = h*923521 + int32(c0)*29791 + int32(c1)*961 + int32(c2)*31 + int32(c3)
	}
	return javaHashCodeFrom(h, s[i:])
}

// javaHashCodeFrom continues String.hashCode's h = 31*h + c from h over s:
// the definition, one UTF-16 code unit at a time.
func javaHashCodeFrom(h int32, s string) int32 {
	for _, r := range s {
		if r >= 0x10000 {
			h = 31*h + int32(firstUTF16(r))
			h = 31*h + int32(secondUTF16(r))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// KafkaAbs is Kafka's Utils.abs: Math.abs, except MIN_VALUE maps to 0.
func KafkaAbs(n int32) int32 {
	if n == -1<<31 {
		return 0
	}
	if n < 0 {
		return -n
	}
	return n
}

// CoordinatorPartition is the __consumer_offsets partition that holds a
// group: Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions.
// Its leader broker is the group coordinator.
func CoordinatorPartition(groupID string, offsetsPartitions int32) int32 {
	return KafkaAbs(JavaHashCode(groupID)) % offsetsPartitions
}

// CheckGroupID refuses a group.id no consumer group can have: empty, or
// nothing but what Java's String.trim drops (ConfigDef trims string
// configs: every character up to U+0020). The consumer throws
// InvalidGroupIdException at construction, and the coordinator answers
// JoinGroup, SyncGroup, Heartbeat and LeaveGroup for "" with INVALID_GROUP_ID
// (GroupCoordinator.isValidGroupId; only offset and admin APIs accept it).
func CheckGroupID(id string) error {
	if strings.TrimFunc(id, func(r rune) bool { return r <= ' ' }) == "" {
		return fmt.Errorf("an empty group.id is invalid: the consumer refuses it (InvalidGroupIdException) and the coordinator answers INVALID_GROUP_ID")
	}
	return nil
}

func firstUTF16(r rune) rune {
	if r < 0x10000 {
		return r
	}
	return 0xD800 + ((r - 0x10000) >> 10)
}

func secondUTF16(r rune) rune {
	if r < 0x10000 {
		return 0
	}
	return 0xDC00 + ((r - 0x10000) & 0x3FF)
}
