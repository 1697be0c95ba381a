package live

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// missing is what kafka-consumer-groups.sh prints for a value it does not have.
const missing = "-"

// WriteTable prints the group as `kafka-consumer-groups.sh --describe
// --members --verbose` and then `--offsets` print it (Kafka 4's layout,
// ConsumerGroupCommand.printMembers and printOffsets: the same columns,
// widths and assignment strings), so the output reads as engineers know it
// and `kviz live --from-describe` reads it back. The offsets block lists
// every partition of the group's topics, owned or not.
func WriteTable(w io.Writer, g *Group) error {
	var b strings.Builder
	if g.Type == Share {
		writeShare(&b, g)
		_, err := io.WriteString(w, b.String())
		return err
	}
	writeMembers(&b, g)
	b.WriteString("\n")
	writeOffsets(&b, g)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMembers(b *strings.Builder, g *Group) {
	wg, wc, wi, wh, wcl, wca, wta := max(15, len(g.Group)), 15, 17, 15, 15, 20, 20
	withInstance := false
	for _, m := range g.Members {
		wc, wh, wcl = max(wc, len(m.MemberID)), max(wh, len(m.Host)), max(wcl, len(m.ClientID))
		if m.InstanceID != nil && *m.InstanceID != "" {
			withInstance, wi = true, max(wi, len(*m.InstanceID))
		}
		wca, wta = max(wca, len(AssignmentString(m.Assignment))), max(wta, len(AssignmentString(m.Target)))
	}
	// Kafka 4 adds UPGRADED (the member runs the consumer protocol) when the
	// group has members of both protocols (printMembers: hasMigrationMember).
	mixed := g.Mixed()
	row := func(group, id, inst, host, client, n, ce, ca, te, ta, up string) {
		line := fmt.Sprintf("%-*s %-*s ", wg, group, wc, id)
		if withInstance {
			line += fmt.Sprintf("%-*s ", wi, inst)
		}
		line += fmt.Sprintf("%-*s %-*s %-15s %-15s %-*s %-15s %-*s", wh, host, wcl, client, n, ce, wca, ca, te, wta, ta)
		if mixed {
			line += " " + up
		}
		writeLine(b, line)
	}
	row("GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS",
		"CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT", "UPGRADED")
	for _, m := range g.Members {
		inst := ""
		if m.InstanceID != nil {
			inst = *m.InstanceID
		}
		targetEpoch := missing
		if g.AssignmentEpoch != nil && m.Target != nil {
			targetEpoch = strconv.Itoa(int(*g.AssignmentEpoch))
		}
		n := count(m.Assignment)
		if m.PartitionCount != nil {
			n = *m.PartitionCount
		}
		upgraded := missing
		if m.MemberType != nil {
			upgraded = strconv.FormatBool(*m.MemberType == MemberConsumer)
		}
		row(g.Group, m.MemberID, inst, m.Host, m.ClientID, strconv.Itoa(n),
			optInt(m.MemberEpoch), AssignmentString(m.Assignment), targetEpoch, AssignmentString(m.Target), upgraded)
	}
}

func writeOffsets(b *strings.Builder, g *Group) {
	owner := map[string]*Member{}
	for i := range g.Members {
		for t, ps := range g.Members[i].Assignment {
			for _, p := range ps {
				owner[t+"\x00"+strconv.Itoa(int(p))] = &g.Members[i]
			}
		}
	}
	wg, wt, wc, wh := max(15, len(g.Group)), 15, 15, 15
	for _, o := range g.Offsets {
		wt = max(wt, len(o.Topic))
	}
	for _, m := range g.Members {
		wc, wh = max(wc, len(m.MemberID)), max(wh, len(m.Host))
	}
	row := func(cols ...string) {
		writeLine(b, fmt.Sprintf("%-*s %-*s %-10s %-15s %-15s %-15s %-*s %-*s %s", wg, cols[0], wt, cols[1], cols[2], cols[3], cols[4], cols[5], wc, cols[6], wh, cols[7], cols[8]))
	}
	row("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID")
	for _, o := range g.Offsets {
		id, host, client := missing, missing, missing
		if m := owner[o.Topic+"\x00"+strconv.Itoa(int(o.Partition))]; m != nil {
			id, host, client = m.MemberID, m.Host, m.ClientID
		}
		row(g.Group, o.Topic, strconv.Itoa(int(o.Partition)), optInt(o.Committed), optInt(o.LogEnd), optInt(o.Lag), id, host, client)
	}
}

// writeShare prints a share group as `kafka-share-groups.sh --describe
// --group G --state --verbose`, `--members --verbose` and `--offsets` print
// it (Kafka 4.2's ShareGroupCommand.printStates, printMembers,
// printOffsets: their columns and widths), then which members share each
// partition, which Kafka's tool leaves the reader to work out.
func writeShare(b *strings.Builder, g *Group) {
	wg := max(15, len(g.Group))
	coord := missing
	if g.Coordinator != nil {
		coord = fmt.Sprintf("(%d)", *g.Coordinator)
	}
	wco := max(25, len(coord))
	writeLine(b, fmt.Sprintf("%-*s %-*s %-15s %-12s %-17s %s", wg, "GROUP", wco, "COORDINATOR (ID)", "STATE", "GROUP-EPOCH", "ASSIGNMENT-EPOCH", "#MEMBERS"))
	writeLine(b, fmt.Sprintf("%-*s %-*s %-15s %-12s %-17s %d", wg, g.Group, wco, coord, g.State, optInt(g.GroupEpoch), optInt(g.AssignmentEpoch), len(g.Members)))
	b.WriteString("\n")
	wc, wh, wcl := 15, 15, 15
	for _, m := range g.Members {
		wc, wh, wcl = max(wc, len(m.MemberID)), max(wh, len(m.Host)), max(wcl, len(m.ClientID))
	}
	mrow := func(cols ...string) {
		writeLine(b, fmt.Sprintf("%-*s %-*s %-*s %-*s %-12s %-13s %s", wg, cols[0], wc, cols[1], wh, cols[2], wcl, cols[3], cols[4], cols[5], cols[6]))
	}
	mrow("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "MEMBER-EPOCH", "ASSIGNMENT")
	for _, m := range g.Members {
		mrow(g.Group, m.MemberID, m.Host, m.ClientID, strconv.Itoa(count(m.Assignment)), optInt(m.MemberEpoch), AssignmentString(m.Assignment))
	}
	b.WriteString("\n")
	wt := 15
	for _, o := range g.Offsets {
		wt = max(wt, len(o.Topic))
	}
	sharers := g.sharers()
	orow := func(cols ...string) {
		writeLine(b, fmt.Sprintf("%-*s %-*s %-10s %-13s %-15s %-15s %-9s %s", wg, cols[0], wt, cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7]))
	}
	orow("GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LOG-END-OFFSET", "LAG", "#MEMBERS", "CLIENT-IDS")
	for _, o := range g.Offsets {
		ms := sharers[fmt.Sprintf("%s\x00%d", o.Topic, o.Partition)]
		ids := make([]string, len(ms))
		for i, m := range ms {
			ids[i] = m.ClientID
			if ids[i] == "" {
				ids[i] = m.MemberID
			}
		}
		slices.Sort(ids)
		who := strings.Join(ids, ",")
		if who == "" {
			who = missing
		}
		orow(g.Group, o.Topic, strconv.Itoa(int(o.Partition)), optInt(o.StartOffset), optInt(o.LogEnd), optInt(o.Lag), strconv.Itoa(len(ms)), who)
	}
}

// WriteList prints `--list` with the group's type and state.
func WriteList(w io.Writer, ls []Listed) error {
	var b strings.Builder
	wg := 15
	for _, l := range ls {
		wg = max(wg, len(l.Group))
	}
	fmt.Fprintf(&b, "%-*s %-15s %s\n", wg, "GROUP", "TYPE", "STATE")
	for _, l := range ls {
		fmt.Fprintf(&b, "%-*s %-15s %s\n", wg, l.Group, l.Type, l.State)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// AssignmentString is Kafka's "orders:0,1;payments:3" (topics and
// partitions sorted), or "-" for none.
func AssignmentString(a map[string][]int32) string {
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(a)) {
		if len(a[t]) == 0 {
			continue
		}
		ps := slices.Sorted(slices.Values(a[t]))
		ss := make([]string, len(ps))
		for i, p := range ps {
			ss[i] = strconv.Itoa(int(p))
		}
		parts = append(parts, t+":"+strings.Join(ss, ","))
	}
	if len(parts) == 0 {
		return missing
	}
	return strings.Join(parts, ";")
}

func count(a map[string][]int32) int {
	n := 0
	for _, ps := range a {
		n += len(ps)
	}
	return n
}

func optInt[T int32 | int64](v *T) string {
	if v == nil {
		return missing
	}
	return strconv.FormatInt(int64(*v), 10)
}

// writeLine ends a line without Java's trailing padding.
func writeLine(b *strings.Builder, line string) {
	b.WriteString(strings.TrimRight(line, " "))
	b.WriteString("\n")
}
