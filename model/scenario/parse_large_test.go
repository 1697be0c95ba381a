package scenario_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/scenario"
)

// Large inputs that the parser once took seconds over, because some check
// cost the product of two of its lengths: the timeline's member check,
// the did-you-mean suggestion, a member's owned list, a member's default
// topic list. testdata/parse-large/<family>.yaml is largeInput(family,
// size) at the size below; BenchmarkParseLarge parses each at that size
// and four times it (the parser is linear when MB/s stays put).
var largeFamilies = []struct {
	name string
	size int
	want string // the error the parse ends with; "" = it parses
}{
	{"timeline-restarts", 1500, ""},
	{"suggest-topic", 16000, `f.yaml:66: add_partitions: unknown topic "`},
	{"suggest-member", 40000, `f.yaml:2003: leave: no member "`},
	{"owned-partitions", 100000, ""},
	{"owned-topics", 100000, ""},
	{"default-topics", 20000, ""},
}

func largeInput(family string, n int) string {
	var b strings.Builder
	each := func(k int, format string) { // format has one %d: 0..k-1
		for i := range k {
			fmt.Fprintf(&b, format, i)
		}
	}
	long := func(c string, k int) string { return strings.Repeat(c, k) }
	switch family {
	case "timeline-restarts": // n members join, then each restarts
		b.WriteString("topics: {t0: 3}\ntimeline:\n")
		each(n, "  - {at_ms: %[1]d, join: {id: m%[1]d}}\n")
		each(n, "  - {at_ms: 9999999, restart: m%d}\n")
	case "suggest-topic": // a long unknown name against long topic names
		b.WriteString("topics:\n")
		each(n/250, "  "+long("a", 240)+"%d: 1\n")
		fmt.Fprintf(&b, "timeline: [{at_ms: 1, add_partitions: {topic: %s, count: 3}}]\n", long("b", n))
	case "suggest-member": // a long unknown member against 2000 long ids
		b.WriteString("topics: {t0: 1}\nmembers:\n")
		each(2000, "  - {id: "+long("m", n/4000)+"%d}\n")
		fmt.Fprintf(&b, "timeline: [{at_ms: 1, leave: %s}]\n", long("m", n/2))
	case "owned-partitions": // one member owning n/6 partitions
		b.WriteString("topics: {t0: 1048576}\ngroup: {generation: 2}\nmembers:\n  - id: c1\n    owned: {t0: [")
		each(n/6, "%d,")
		b.WriteString("]}\n")
	case "owned-topics": // one member owning a partition of each of n/20 topics
		b.WriteString("topics: {")
		each(n/20, "t%d: 1,")
		b.WriteString("}\ngroup: {generation: 2}\nmembers:\n  - id: c1\n    owned: {")
		each(n/20, "t%d: 0,")
		b.WriteString("}\n")
	case "default-topics": // n/16 members, each subscribing to every one of n/16 topics
		b.WriteString("topics: {")
		each(n/16, "t%d: 1,")
		b.WriteString("}\nmembers:\n")
		each(n/16, "- {id: m%d}\n")
	default:
		panic("no family " + family)
	}
	return b.String()
}

func largeFile(t testing.TB, family string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "parse-large", family+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The large inputs parse to what they say (so the benchmark measures the
// checks it is meant to), and the files are the generators' output.
func TestParseLargeInputs(t *testing.T) {
	for _, f := range largeFamilies {
		t.Run(f.name, func(t *testing.T) {
			data := largeFile(t, f.name)
			if string(data) != largeInput(f.name, f.size) {
				t.Fatalf("testdata/parse-large/%s.yaml is not largeInput(%q, %d): write it again", f.name, f.name, f.size)
			}
			sc, err := scenario.Parse("f.yaml", data)
			switch {
			case f.want == "" && err != nil:
				t.Fatalf("want a scenario, got %v", err)
			case f.want != "" && (err == nil || !strings.HasPrefix(err.Error(), f.want)):
				t.Fatalf("want an error starting %q, got %v", f.want, err)
			case f.name == "timeline-restarts" && len(sc.Timeline) != 2*f.size:
				t.Fatalf("%d timeline entries, want %d", len(sc.Timeline), 2*f.size)
			case f.name == "owned-partitions" && len(sc.Members[0].Owned) != f.size/6:
				t.Fatalf("c1 owns %d partitions, want %d", len(sc.Members[0].Owned), f.size/6)
			case f.name == "default-topics" && len(sc.Members[len(sc.Members)-1].Topics) != f.size/16:
				t.Fatalf("the last member subscribes to %d topics, want %d", len(sc.Members[len(sc.Members)-1].Topics), f.size/16)
			}
		})
	}
}

// BenchmarkParseLarge: each large input at its size (x1) and four times it
// (x4); the same MB/s at both says the parse is linear in its input.
func BenchmarkParseLarge(b *testing.B) {
	for _, f := range largeFamilies {
		for _, scale := range []int{1, 4} {
			data := []byte(largeInput(f.name, scale*f.size))
			b.Run(fmt.Sprintf("%s/x%d", f.name, scale), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					scenario.Parse("f.yaml", data)
				}
			})
		}
	}
}
