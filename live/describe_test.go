package live

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// Kafka 3.x's --members --verbose: one ASSIGNMENT column, "topic(p,q)".
const describeClassic3 = `
GROUP           CONSUMER-ID                                       HOST            CLIENT-ID       #PARTITIONS     ASSIGNMENT
shop            consumer-shop-1-5e0f4e0a-6ad0-4c2d-9e9e-1b0e2b0c5d11 /10.0.0.7       consumer-shop-1 3               orders(0,1,2)
shop            consumer-shop-2-9b7c1e2f-0d3a-4f55-8a61-7e4c2f9d0a22 /10.0.0.8       consumer-shop-2 4               orders(3,4,5), payments(0)
`

// Kafka 4's consumer protocol: epochs and targets; one static member.
const describeConsumer4 = `
GROUP           CONSUMER-ID            GROUP-INSTANCE-ID HOST            CLIENT-ID       #PARTITIONS     CURRENT-EPOCH   CURRENT-ASSIGNMENT   TARGET-EPOCH    TARGET-ASSIGNMENT
shop            4uHq2f3kS1mCw3o0Qe1xVg app-1             /10.0.0.7       app             2               7               orders:0,1           7               orders:0,1
shop            Xq9pZ0bnRkW2hCk1d3Yt2A                   /10.0.0.8       app             1               6               orders:2             7               orders:2,3

Warning: Consumer group 'shop' is rebalancing.
GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID            HOST            CLIENT-ID
shop            orders          0          10              12              2               4uHq2f3kS1mCw3o0Qe1xVg /10.0.0.7       app
shop            orders          3          5               9               4               -                      -               -
`

func TestParseDescribeClassic3(t *testing.T) {
	g, err := ParseDescribe("d.txt", strings.NewReader(describeClassic3))
	if err != nil {
		t.Fatal(err)
	}
	if g.Group != "shop" || g.Type != Classic || len(g.Members) != 2 {
		t.Fatalf("%+v", g)
	}
	if got := g.Members[1].Assignment; !reflect.DeepEqual(got, map[string][]int32{"orders": {3, 4, 5}, "payments": {0}}) {
		t.Errorf("assignment %v", got)
	}
	if g.Topics["orders"] != 6 || g.Topics["payments"] != 1 {
		t.Errorf("topics %v", g.Topics)
	}
	if !strings.Contains(strings.Join(g.Unknown, "\n"), "--offsets") {
		t.Errorf("it should say offsets are unknown: %v", g.Unknown)
	}
}

func TestParseDescribeConsumer4(t *testing.T) {
	g, err := ParseDescribe("d.txt", strings.NewReader(describeConsumer4))
	if err != nil {
		t.Fatal(err)
	}
	if g.Type != Consumer || *g.AssignmentEpoch != 7 || len(g.Members) != 2 {
		t.Fatalf("%+v", g)
	}
	a, b := g.Members[0], g.Members[1]
	if a.MemberID != "4uHq2f3kS1mCw3o0Qe1xVg" || a.InstanceID == nil || *a.InstanceID != "app-1" || *a.MemberEpoch != 7 {
		t.Errorf("first member %+v", a)
	}
	if b.InstanceID != nil || *b.MemberEpoch != 6 || !reflect.DeepEqual(b.Target, map[string][]int32{"orders": {2, 3}}) {
		t.Errorf("second member (blank instance id) %+v", b)
	}
	if o := g.Offsets[0]; *o.Committed != 10 || *o.LogEnd != 12 || *o.Lag != 2 {
		t.Errorf("offset %+v", o)
	}
	if g.State != "Rebalancing" {
		t.Errorf("state %q", g.State)
	}
}

func TestParseDescribeUnalignedPaste(t *testing.T) {
	text := "GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT\ng c1-1 /h c1 2 t(0,1)\ng c2-1 /h c2 1 t(2)\n"
	g, err := ParseDescribe("-", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Members) != 2 || g.Topics["t"] != 3 {
		t.Errorf("%+v", g)
	}
}

func TestParseDescribeErrorsNameTheLine(t *testing.T) {
	for text, want := range map[string]string{
		"GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT\ng c1 /h c1 2 t(0,x)\n":                  "d:2: ASSIGNMENT",
		"GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT\ng c1 /h\n":                              "d:2: 3 values for 6 columns",
		"GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS ASSIGNMENT\ng c1 /h c1 1 t(0)\nh c2 /h c2 1 t(1)\n": "d:3: a second group",
		"\nError: Consumer group 'g' does not exist.\n":                                                   "d:2: the output says",
		"nothing here\n": "no kafka-consumer-groups.sh",
	} {
		_, err := ParseDescribe("d", strings.NewReader(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

// What kviz live --format table prints, --from-describe reads back.
func TestTableRoundTrip(t *testing.T) {
	g, err := ParseDescribe("d.txt", strings.NewReader(describeConsumer4))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, g); err != nil {
		t.Fatal(err)
	}
	back, err := ParseDescribe("table", &buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	for i := range g.Members {
		a, b := g.Members[i], back.Members[i]
		if a.MemberID != b.MemberID || !reflect.DeepEqual(a.Assignment, b.Assignment) || !reflect.DeepEqual(a.Target, b.Target) ||
			!reflect.DeepEqual(a.InstanceID, b.InstanceID) || *a.MemberEpoch != *b.MemberEpoch {
			t.Errorf("member %d: %+v, read back %+v", i, a, b)
		}
	}
	if !reflect.DeepEqual(g.Offsets, back.Offsets) {
		t.Errorf("offsets %v, read back %v", g.Offsets, back.Offsets)
	}
}

func FuzzParseDescribe(f *testing.F) {
	for _, s := range []string{describeClassic3, describeConsumer4, "GROUP STATE #MEMBERS\ng Stable 2\n",
		"GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                #MEMBERS\ng               localhost:9092  (1)       range                Stable               2\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseDescribe("fuzz", strings.NewReader(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteTable(&buf, g); err != nil {
			t.Fatal(err)
		}
		_, _, _, _ = g.Import() // may refuse, never panic
	})
}

// The tool's message lines name the group between quotes; kviz reads the
// name and the state from them.
func TestParseDescribeMessageLines(t *testing.T) {
	const offsets = "GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID\n"
	g, err := ParseDescribe("d", strings.NewReader("\nConsumer group 'it's-idle' has no active members.\n\n"+offsets+"it's-idle orders 0 10 12 2 - - -\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Group != "it's-idle" || g.State != "Empty" || len(g.Members) != 0 {
		t.Errorf("%+v", g)
	}
	if _, err := ParseDescribe("d", strings.NewReader("Consumer group 'a' has no active members.\n"+offsets+"b orders 0 1 1 0 - - -\n")); err == nil || !strings.Contains(err.Error(), `a second group "b"`) {
		t.Errorf("a message naming another group: %v", err)
	}
	for _, text := range []string{"Consumer group 'g' does not exist.", "Error: Consumer group 'g' does not exist."} {
		if _, err := ParseDescribe("d", strings.NewReader(text+"\n")); err == nil || !strings.Contains(err.Error(), "d:1: the output says the group does not exist") {
			t.Errorf("%q: %v", text, err)
		}
	}
	// Not the messages: a quote missing, or more after the full stop.
	for _, text := range []string{"Consumer group ' has no active members.", "Consumer group 'g' has no active members. Really."} {
		if _, err := ParseDescribe("d", strings.NewReader(text+"\n")); err == nil || !strings.Contains(err.Error(), "no kafka-consumer-groups.sh") {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// --members without --verbose: #PARTITIONS and no assignment column.
const describeMembersOnly = `
GROUP           CONSUMER-ID                                          HOST            CLIENT-ID       #PARTITIONS
shop            consumer-shop-1-5e0f4e0a-6ad0-4c2d-9e9e-1b0e2b0c5d11 /10.0.0.7       consumer-shop-1 3
shop            consumer-shop-2-9b7c1e2f-0d3a-4f55-8a61-7e4c2f9d0a22 /10.0.0.8       consumer-shop-2 2
`

const describeOffsetsOfShop = `
GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID                                          HOST            CLIENT-ID
shop            orders          0          10              12              2               consumer-shop-1-5e0f4e0a-6ad0-4c2d-9e9e-1b0e2b0c5d11 /10.0.0.7       consumer-shop-1
shop            orders          1          10              12              2               consumer-shop-1-5e0f4e0a-6ad0-4c2d-9e9e-1b0e2b0c5d11 /10.0.0.7       consumer-shop-1
shop            orders          2          10              12              2               consumer-shop-1-5e0f4e0a-6ad0-4c2d-9e9e-1b0e2b0c5d11 /10.0.0.7       consumer-shop-1
shop            orders          3          10              12              2               consumer-shop-2-9b7c1e2f-0d3a-4f55-8a61-7e4c2f9d0a22 /10.0.0.8       consumer-shop-2
shop            orders          4          10              12              2               consumer-shop-2-9b7c1e2f-0d3a-4f55-8a61-7e4c2f9d0a22 /10.0.0.8       consumer-shop-2
`

func TestParseDescribeMembersWithoutVerboseKeepsTheCounts(t *testing.T) {
	g, err := ParseDescribe("d.txt", strings.NewReader(describeMembersOnly))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Members) != 2 || g.Members[0].PartitionCount == nil || *g.Members[0].PartitionCount != 3 || *g.Members[1].PartitionCount != 2 {
		t.Fatalf("members %+v", g.Members)
	}
	if !strings.Contains(strings.Join(g.Unknown, "\n"), "no ASSIGNMENT column (add --verbose") {
		t.Errorf("it should say the assignment is missing: %v", g.Unknown)
	}
	_, _, _, err = g.Import()
	if err == nil || !strings.Contains(err.Error(), "--members without --verbose prints how many partitions") {
		t.Errorf("import: %v", err)
	}
}

func TestParseDescribeMembersWithoutVerboseTakesOwnersFromOffsets(t *testing.T) {
	for _, text := range []string{describeMembersOnly + describeOffsetsOfShop, describeOffsetsOfShop + describeMembersOnly} {
		g, err := ParseDescribe("d.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Members[0].Assignment; !reflect.DeepEqual(got, map[string][]int32{"orders": {0, 1, 2}}) {
			t.Errorf("first member %v", got)
		}
		if g.Members[1].PartitionCount != nil {
			t.Errorf("the offsets told every partition: no count needed, %+v", g.Members[1])
		}
		_, sc, notes, err := g.Import()
		if err != nil {
			t.Fatal(err)
		}
		if len(sc.Members) != 2 || len(sc.Members[0].Owned) != 3 || len(sc.Members[1].Owned) != 2 {
			t.Errorf("imported %+v", sc.Members)
		}
		if !strings.Contains(strings.Join(notes, "\n"), "taken from the --offsets block") {
			t.Errorf("notes %v", notes)
		}
	}
}

// A members paste with some partitions named by offsets but not all: the
// import says what it could not place.
func TestImportSaysWhatACountLeavesOut(t *testing.T) {
	text := describeMembersOnly + "\nGROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID\n" +
		"shop orders 0 1 2 1 consumer-shop-1-5e0f4e0a-6ad0-4c2d-9e9e-1b0e2b0c5d11 /10.0.0.7 consumer-shop-1\n"
	g, err := ParseDescribe("d.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	_, _, notes, err := g.Import()
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "consumer-shop-1 holds 3 partitions but the output does not say which: imported as owning the 1 the output names") ||
		!strings.Contains(all, "consumer-shop-2 holds 2 partitions but the output does not say which: imported as owning nothing") {
		t.Errorf("notes %v", notes)
	}
}

func TestTableOfACountOnlyPasteReadsBack(t *testing.T) {
	g, err := ParseDescribe("d.txt", strings.NewReader(describeMembersOnly))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, g); err != nil {
		t.Fatal(err)
	}
	back, err := ParseDescribe("table", &buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if *back.Members[0].PartitionCount != 3 || *back.Members[1].PartitionCount != 2 {
		t.Errorf("read back %+v", back.Members)
	}
}
