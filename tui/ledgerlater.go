package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model"
)

// A Kafka-scale group (issue 21: 10,000 members × 500,000 partitions)
// opens before its rebalances are counted: model.NewLedger scans every
// step's ownership, seconds that the first frame does not need. The count
// runs as a command from Init; until it lands the numbers pane says so,
// the grid marks no moves and ] / [ ask to wait. A key that needs the
// figures at once (an event's moment, compare, what-if) counts them
// itself: the model keeps one scan per simulation, so it waits for the
// one under way rather than doing it twice.

// countLaterFrom is the number of partitions from which a scenario's
// rebalances are counted after the first frame.
const countLaterFrom = 50_000

// countLater reports whether sim is big enough to open before its
// rebalances are counted.
func countLater(sim simulation) bool {
	n := 0
	for _, p := range sim.Scenario().Topics {
		n += int(p)
	}
	return n >= countLaterFrom
}

// ledgerMsg brings the rebalances counted for info.
type ledgerMsg struct {
	info   *simInfo
	ledger *model.Ledger
}

// countRebalances is the command that counts them (nil when counted).
func (a App) countRebalances() tea.Cmd {
	if a.info.ledger != nil {
		return nil
	}
	info, sim := a.info, a.sim
	return func() tea.Msg { return ledgerMsg{info: info, ledger: model.NewLedger(sim).Figured()} }
}

// onLedger installs counted rebalances, if they are still for the
// simulation on screen and were not counted meanwhile.
func (a *App) onLedger(msg ledgerMsg) {
	if msg.info != a.info || a.info.ledger != nil {
		return
	}
	a.info.setLedger(msg.ledger)
	a.memo.grid, a.memo.gridText = nil, nil // the moves can be marked now
}

// ledger is the run's rebalances, counted now if they were not yet.
func (a *App) ledger() *model.Ledger {
	if a.info.ledger == nil {
		a.info.setLedger(model.NewLedger(a.sim).Figured())
		a.memo.grid, a.memo.gridText = nil, nil
	}
	return a.info.ledger
}

// counting reports whether the rebalances are still being counted.
func (a *App) counting() bool { return a.info.ledger == nil }
