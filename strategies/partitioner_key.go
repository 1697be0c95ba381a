package strategies

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// KeyRoute is the key path of Kafka's producer, step by step:
// key bytes → murmur2 → toPositive → mod partitions → partition.
type KeyRoute struct {
	Key        []byte
	Murmur2    int32 // signed, as Utils.murmur2 returns it
	Positive   int32 // Utils.toPositive(Murmur2)
	Partitions int
	Partition  int
}

// RouteKey computes the key path for a non-null key over numPartitions
// partitions (all of them, available or not). numPartitions must be ≥ 1.
func RouteKey(key []byte, numPartitions int) KeyRoute {
	h := Murmur2(key)
	pos := ToPositive(h)
	return KeyRoute{Key: key, Murmur2: h, Positive: pos, Partitions: numPartitions, Partition: positiveMod(pos, numPartitions)}
}

// Steps explains the route in words, one step a line.
func (r KeyRoute) Steps() []string {
	return []string{
		fmt.Sprintf("key %s = %d bytes: %s", quoteKey(r.Key), len(r.Key), hexBytes(r.Key, 32)),
		fmt.Sprintf("murmur2(key) = %d (0x%08x, signed 32-bit as Java returns it)", r.Murmur2, uint32(r.Murmur2)),
		fmt.Sprintf("toPositive = %d & 0x7fffffff = %d (clears the sign bit; not abs)", r.Murmur2, r.Positive),
		fmt.Sprintf("%d %% %d partitions = %d", r.Positive, r.Partitions, r.Partition),
		fmt.Sprintf("→ partition %d", r.Partition),
	}
}

// Line is the route on one line, for an explanation list.
func (r KeyRoute) Line() string {
	return fmt.Sprintf("key %s → murmur2 %d → toPositive %d → %% %d = partition %d",
		quoteKey(r.Key), r.Murmur2, r.Positive, r.Partitions, r.Partition)
}

func quoteKey(k []byte) string {
	if utf8.Valid(k) {
		return strconv.Quote(string(k))
	}
	if len(k) > 32 {
		return "0x" + hex.EncodeToString(k[:32]) + "…"
	}
	return "0x" + hex.EncodeToString(k)
}

// hexBytes prints up to limit bytes in hex, then how many were left out.
func hexBytes(b []byte, limit int) string {
	if len(b) == 0 {
		return "(none)"
	}
	out := make([]byte, 0, 3*min(len(b), limit)+16)
	for i, c := range b {
		if i == limit {
			return string(out) + fmt.Sprintf(" … (+%d)", len(b)-limit)
		}
		if i > 0 {
			out = append(out, ' ')
		}
		out = fmt.Appendf(out, "%02x", c)
	}
	return string(out)
}

// ChoiceLine explains a partition choice in one line, for the lab's "latest
// record" view.
func ChoiceLine(c PartitionChoice) string {
	var s string
	switch c.Kind {
	case ChoseExplicit:
		s = fmt.Sprintf("explicit partition %d", c.Partition)
	case ChoseKey:
		s = c.Route.Line()
	case ChoseRoundRob:
		s = fmt.Sprintf("no key: round robin → partition %d", c.Partition)
	case ChoseSticky:
		s = fmt.Sprintf("no key: sticky partition %d", c.Partition)
	default:
		s = fmt.Sprintf("partition %d", c.Partition)
	}
	if c.Abandoned >= 0 {
		s += fmt.Sprintf(" (first pick %d needed a new batch: asked again)", c.Abandoned)
	}
	return s
}
