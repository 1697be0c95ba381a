package tui

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model"
)

// maxQueuesShown is how many partitions' queues a batch line names.
const maxQueuesShown = 4

// batchLines are a producer's accumulator: batch.size and linger.ms, each
// waiting partition's next batch (filled against batch.size, the linger
// countdown), then the sender's latest batch and why it went.
func (fp producerPane) batchLines(p model.ProducerView) []string {
	st := fp.st
	var waiting []string
	for i, q := range p.Queues {
		if i == maxQueuesShown {
			break
		}
		b := q.Batches[0]
		due := fmt.Sprintf("%d ms left", b.LingerLeftMs)
		switch {
		case b.Full:
			due = "full"
		case b.LingerLeftMs == 0:
			due = "due"
		}
		if len(q.Batches) > 1 {
			due += fmt.Sprintf(", +%d behind", len(q.Batches)-1)
		}
		waiting = append(waiting, fmt.Sprintf("p%d %s %s, %s", q.Partition, fillBar(b.Bytes, p.BatchSize), kb(b.Bytes), due))
	}
	if more := p.QueuedPartitions - min(len(p.Queues), maxQueuesShown); more > 0 {
		waiting = append(waiting, fmt.Sprintf("+%d partitions", more))
	}
	if len(waiting) == 0 {
		waiting = append(waiting, "none waiting")
	}
	lines := []string{fmt.Sprintf("  batches (%s, linger %d ms): %s", kb(p.BatchSize), p.LingerMs, strings.Join(waiting, "; "))}
	if s := p.LastSent; s != nil {
		lines = append(lines, fmt.Sprintf("  sent %s batches · latest p%d: %s, %s, %s", count(p.BatchesSent), s.Partition, records(s.Records), kb(s.Bytes), s.Why))
	}
	for i, l := range lines {
		lines[i] = st.brushes.faint.paint(l)
	}
	return lines
}

// records is "1 record", "150 records".
func records(n int) string {
	if n == 1 {
		return "1 record"
	}
	return fmt.Sprintf("%d records", n)
}

// fillBar draws bytes against batch.size in 6 cells.
func fillBar(bytes, size int) string {
	const cells = 6
	n := 0
	if size > 0 {
		n = min(cells, bytes*cells/size)
	}
	return "▕" + strings.Repeat("█", n) + strings.Repeat("░", cells-n) + "▏"
}

// kb writes a byte count in KB with one decimal (B below 1 KB).
func kb(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}
