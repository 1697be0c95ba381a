package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model"
)

// The broker map: which broker is up, how many partitions each leads, and
// every partition's replicas with its leader marked, so a failed broker's
// leadership can be seen moving to the next in-sync replica.

// brokerPane is the broker pane's data: the model's data path after the
// step and the group's coordinator.
type brokerPane struct {
	f           *model.FlowView
	coordinator int
	hidden      []string // topics whose replicas a quiz question asks about
	// read names the coordinator a live read named ("broker 1"); "" when
	// the pane shows the model's.
	read string
	st   *Styles
	// scroll is how many replica lines are scrolled off the top (the
	// producer pane's keys scroll both, scroll.go).
	scroll int
}

// Render is the pane in w × h cells: one line per broker, then one per
// partition.
func (bp brokerPane) Render(w, h int) []string {
	f, st := bp.f, bp.st
	var out []string
	coordinator := bp.coordinator
	for _, b := range f.Brokers {
		state := st.Good.Render("●") + " leads " + fmt.Sprint(b.Leads)
		if !b.Up {
			state = st.brushes.bad.paint("✗ down")
		}
		head := fmt.Sprintf("b%-2d %s ", b.ID, state)
		holds := st.brushes.faint.paint(fmt.Sprintf("· holds %d", b.Replicas))
		if b.ID != coordinator {
			out = append(out, fit(head+holds, w))
			continue
		}
		// The coordinator keeps its word; the replica count goes first.
		coord := st.brushes.accent.paint("· coordinator")
		if bp.read != "" {
			coord += st.brushes.faint.paint(" (read: " + bp.read + ")")
		}
		out = append(out, firstFit(w, head+holds+" "+coord, head+coord))
	}
	if bp.read != "" && !slices.ContainsFunc(f.Brokers, func(b model.FlowBroker) bool { return b.ID == coordinator }) {
		out = append(out, fit(st.brushes.accent.paint("coordinator")+st.brushes.faint.paint(" (read): "+bp.read), w))
	}
	out = append(out, "")
	down := map[int]bool{}
	for _, b := range f.Brokers {
		down[b.ID] = !b.Up
	}
	var reps []string
	for _, t := range f.Topics {
		if slices.Contains(bp.hidden, t.Name) {
			if len(out) < h {
				out = append(out, fit(st.brushes.faint.paint(pad(t.Name, 11)+" replicas: ?"), w))
			}
			continue
		}
		for _, p := range t.Partitions {
			reps = append(reps, fit(bp.replicaLine(t.Name, p, down), w))
		}
	}
	return append(out, scrolled(reps, h-len(out), bp.scroll, w, st)...)
}

// maxScroll is how far the replica lines scroll in h rows.
func (bp brokerPane) maxScroll(h int) int {
	n := 0
	for _, t := range bp.f.Topics {
		n += len(t.Partitions)
	}
	return scrollMax(n, h-len(bp.f.Brokers)-1)
}

// replicaLine is "orders-4  ⟨2⟩ 0 1": replicas in assignment order (the
// first is the preferred leader), the leader in brackets, a down broker
// crossed out, an out-of-sync one faint.
func (bp brokerPane) replicaLine(topic string, p model.FlowPartition, down map[int]bool) string {
	st := bp.st
	var reps []string
	for _, r := range p.Replicas {
		s := fmt.Sprint(r)
		switch {
		case r == p.Leader:
			s = st.brushes.accent.paint("⟨" + s + "⟩")
		case down[r]:
			s = st.brushes.bad.paint(s + "✗")
		case !slices.Contains(p.ISR, r):
			s = st.brushes.faint.paint(s)
		}
		reps = append(reps, s)
	}
	line := pad(fmt.Sprintf("%s-%d", topic, p.Partition), 11) + " " + strings.Join(reps, " ")
	if p.Leader < 0 {
		line += st.brushes.bad.paint("  offline")
	} else if len(p.Replicas) > 0 && p.Leader != p.Replicas[0] {
		line += st.brushes.faint.paint("  not preferred")
	}
	return line
}

// summary is the broker map in one line, for narrow terminals.
func (bp brokerPane) summary() string {
	f, st := bp.f, bp.st
	parts := []string{st.brushes.faint.paint("brokers")}
	for _, b := range f.Brokers {
		coord := ""
		if b.ID == bp.coordinator {
			coord = st.brushes.accent.paint(" coordinator")
		}
		if b.Up {
			parts = append(parts, fmt.Sprintf("b%d %s leads %d", b.ID, st.Good.Render("●"), b.Leads)+coord)
		} else {
			parts = append(parts, st.brushes.bad.paint(fmt.Sprintf("b%d ✗ down", b.ID)))
		}
	}
	if bp.read != "" {
		parts = append(parts, st.brushes.accent.paint("coordinator "+bp.read)+st.brushes.faint.paint(" (read)"))
	}
	return strings.Join(parts, st.brushes.faint.paint(" · "))
}
