package scenario

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model/kafka"
)

// A member's owned map is read as a scan of it would: the first topic
// named twice, or the first partition listed twice in its topic's list,
// is the error; else the owned partitions are the set listed. Lists come
// ascending, shuffled and long (past the readers' sets), on one line (the
// fast reader) and as blocks (yaml.v3's nodes).
func TestOwnedListsReadAsAScan(t *testing.T) {
	counts := map[string]int{"a": 300, "b": 300, "c": 5}
	rapid.Check(t, func(t *rapid.T) {
		type entry struct {
			topic string
			parts []int
		}
		var entries []entry
		for range rapid.IntRange(1, 5).Draw(t, "topics") {
			topic := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "topic")
			n := counts[topic]
			all := make([]int, n)
			for p := range all {
				all[p] = p
			}
			list := rapid.Permutation(all).Draw(t, "order")[:rapid.IntRange(0, n).Draw(t, "len")]
			if rapid.Bool().Draw(t, "ascending") {
				slices.Sort(list)
			}
			if len(list) > 0 && rapid.IntRange(0, 3).Draw(t, "dup") == 0 {
				at := rapid.IntRange(0, len(list)).Draw(t, "at")
				list = slices.Insert(list, at, list[rapid.IntRange(0, len(list)-1).Draw(t, "of")])
			}
			entries = append(entries, entry{topic, list})
		}
		want, fault := []kafka.TP{}, ""
	scan:
		for i, e := range entries {
			for _, prev := range entries[:i] {
				if prev.topic == e.topic {
					fault = fmt.Sprintf("topic %q is listed twice", e.topic)
					break scan
				}
			}
			for j, p := range e.parts {
				if slices.Contains(e.parts[:j], p) {
					fault = fmt.Sprintf("lists %s-%d twice", e.topic, p)
					break scan
				}
				want = append(want, kafka.TP{Topic: e.topic, Partition: int32(p)})
			}
		}
		kafka.SortTPs(want)
		var line, block []string
		for _, e := range entries {
			nums := make([]string, len(e.parts))
			for j, p := range e.parts {
				nums[j] = fmt.Sprint(p)
			}
			line = append(line, e.topic+": ["+strings.Join(nums, ", ")+"]")
			block = append(block, "      "+e.topic+": ["+strings.Join(nums, ", ")+"]")
		}
		head := "topics: {a: 300, b: 300, c: 5}\ngroup: {strategy: range, generation: 1}\nmembers:\n"
		for _, src := range []string{
			head + "  - {id: c1, owned: {" + strings.Join(line, ", ") + "}}\n",
			head + "  - id: c1\n    owned:\n" + strings.Join(block, "\n") + "\n",
		} {
			sc, err := Parse("o.yaml", []byte(src))
			switch {
			case fault != "" && (err == nil || !strings.Contains(err.Error(), fault)):
				t.Fatalf("want %q, got %v\n%s", fault, err, src)
			case fault == "" && err != nil:
				t.Fatalf("%v\n%s", err, src)
			case fault == "" && !slices.Equal(sc.Members[0].Owned, want):
				t.Fatalf("owned %v, want %v\n%s", sc.Members[0].Owned, want, src)
			}
		}
	})
}
