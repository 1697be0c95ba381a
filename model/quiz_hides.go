package model

// QuizHides is what the screen must not show while a question is open,
// because the answer could be read off it. Every question hides the future:
// the lab stops at the question's step, and a pane that shows what happens
// later (a rebalance's rounds, end, moves and balance; a later rebalance; an
// outage not over yet) answers "how many rounds", "who gets it", "does the
// restart rebalance" and "how many partitions" before the room has guessed.
// A question about replica placement also hides the placement, which is on
// screen from the first step.
type QuizHides struct {
	// Through is the last step whose consequences the panes may show (the
	// question's step).
	Through int `json:"-"`
	// ReplicasOf are the topics whose replica placement is asked about:
	// the brokers pane lists none of their partitions' replicas.
	ReplicasOf []string `json:"-"`
}

// Seen is rebalance r as known at h.Through: shown is false for one that
// has not started yet; ended is false for one still under way (its later
// rounds and its outcome are not known yet).
func (h QuizHides) Seen(r Rebalance) (shown, ended bool) {
	return r.StartStep <= h.Through, r.EndStep <= h.Through
}

// Hiding is the numbers as known at h.Through: no rebalance or outage that
// starts later; of the rebalance under way only the rounds started by then
// (one still under way with EndStep and EndMs -1),
// and its figures marked UnderWay (the pane shows them as unknown); no
// outage that has not ended. Both lists are prefixes of n's (a face that
// keeps texts per row keeps them in step). Its generation is the latest round's so far.
// The shared rows are not changed.
func (n Numbers) Hiding(h QuizHides) Numbers {
	rows := make([]RebalanceRow, 0, len(n.Rebalances))
	for _, r := range n.Rebalances {
		shown, ended := h.Seen(r.Rebalance)
		if !shown {
			break // in step order: every later one starts later still
		}
		if !ended {
			var rounds []Round
			for _, rd := range r.Rounds {
				if rd.StartStep > h.Through {
					break
				}
				if rd.EndStep > h.Through {
					rd.EndStep, rd.EndMs = -1, -1 // under way: its end is not known yet (Round.Text)
				}
				rounds = append(rounds, rd)
			}
			r.Rounds, r.Gaps, r.UnderWay = rounds, nil, true
			if len(rounds) > 0 {
				r.Generation = rounds[len(rounds)-1].Generation // not the one it ends at
			}
		}
		rows = append(rows, r)
	}
	outs := make([]OutageRow, 0, len(n.Outages))
	for _, o := range n.Outages {
		if o.EndStep > h.Through {
			break // in step order, one after the other
		}
		outs = append(outs, o)
	}
	n.Rebalances, n.Outages = rows, outs
	n.Focus = min(n.Focus, len(rows)-1)
	return n
}
