package live

import (
	"bytes"
	"fmt"
	"testing"
)

// bigGroup is 1,000 members on 10 topics of 1,000 partitions, with offsets.
func bigGroup() *Group {
	g := &Group{Group: "big", Type: Classic, ProtocolType: "consumer", Protocol: "range", State: "Stable", RebalanceProtocol: "eager"}
	counts := map[string]int32{}
	committed, ends := map[string]map[int32]int64{}, map[string]map[int32]int64{}
	var topics []string
	for t := 0; t < 10; t++ {
		name := fmt.Sprintf("topic-%d", t)
		topics = append(topics, name)
		counts[name] = 1000
		committed[name], ends[name] = map[int32]int64{}, map[int32]int64{}
		for p := int32(0); p < 1000; p++ {
			committed[name][p], ends[name][p] = int64(p), int64(p)+7
		}
	}
	for m := 0; m < 1000; m++ {
		a := map[string][]int32{}
		for _, t := range topics {
			a[t] = []int32{int32(m)}
		}
		g.Members = append(g.Members, Member{MemberID: fmt.Sprintf("c%d-%08x", m, m*7919), ClientID: fmt.Sprintf("c%d", m),
			Host: "/10.0.0.1", Topics: topics, Assignment: a})
	}
	g.AddCluster(counts, committed, ends)
	return g
}

func BenchmarkWriteTable(b *testing.B) {
	g := bigGroup()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		_ = WriteTable(&buf, g)
	}
}

func BenchmarkParseDescribe(b *testing.B) {
	var buf bytes.Buffer
	_ = WriteTable(&buf, bigGroup())
	text := buf.Bytes()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := ParseDescribe("big", bytes.NewReader(text)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImport(b *testing.B) {
	g := bigGroup()
	for b.Loop() {
		if _, _, _, err := g.Import(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddCluster fills the offsets of the 500,000 partitions of
// scaleGroup (10,000 members, 1,000 topics), each committed and with a log
// end, as a live read does after its last answer (issue 21). Its numbers
// share one block (AddCluster): a pointer allocated for each of the three
// of every partition cost most of this.
func BenchmarkAddCluster(b *testing.B) {
	g := scaleGroup(10000, 1000, 500)
	counts := g.Topics
	committed, ends := map[string]map[int32]int64{}, map[string]map[int32]int64{}
	for t, n := range counts {
		committed[t], ends[t] = make(map[int32]int64, n), make(map[int32]int64, n)
		for p := range n {
			committed[t][p], ends[t][p] = int64(p), int64(p)+7
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		g.AddCluster(counts, committed, ends)
	}
}
