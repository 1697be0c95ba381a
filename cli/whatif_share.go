package cli

import (
	"maps"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// shareMovesText is a share group's moves: several members hold a
// partition, so a member that stops holding it leaves it to the others
// ("t0-0 c2 stops"), one that starts joins them ("t0-1 c6 starts"), and a
// pair is one member's place taken by another ("t0-0 c2→c3").
func shareMovesText(moves []kafka.Move) string {
	if len(moves) == 0 {
		return "none"
	}
	parts := make([]string, len(moves))
	for i, m := range moves {
		tp := kafka.TP{Topic: m.Topic, Partition: m.Partition}.String()
		switch {
		case m.To == "":
			parts[i] = tp + " " + m.From + " stops"
		case m.From == "":
			parts[i] = tp + " " + m.To + " starts"
		default:
			parts[i] = m.String()
		}
	}
	return strings.Join(parts, ", ")
}

// sharedText is who holds each partition once settled, "t0-0 c1 c3 ·
// t0-1 c2 c4" (a partition nobody holds is not listed).
func sharedText(a kafka.Holdings) string {
	h := a.Holders()
	tps := kafka.SortTPs(slices.Collect(maps.Keys(h)))
	if len(tps) == 0 {
		return "nobody"
	}
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String() + " " + strings.Join(h[tp], " ")
	}
	return strings.Join(parts, " · ")
}

// rowName is a compare row's strategy, with its release for a share
// group's rows ("simple 4.2+").
func rowName(r model.CompareRow) string {
	if r.Variant.Label != "" {
		return r.Strategy + " " + r.Variant.Label
	}
	return r.Strategy
}
