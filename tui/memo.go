package tui

import "github.com/kvizlab/kviz/model"

// memo caches what is costly to draw and rarely changes; the App's copies
// share it (Bubble Tea runs Update and View on one goroutine).
type memo struct {
	footer map[footerKey]string

	gridKey     gridKey
	grid        *gridData
	selGrid     *gridData // grid with the current selection marked
	selFor      string    // the member selected in selGrid
	gridTextKey gridTextKey
	gridText    []string

	numbersKey numbersKey
	numbers    *model.Numbers // the numbers at numbersKey (Ledger.At reads every member)

	flowMax int // how far the producer and broker panes scrolled in the last frame

	messages map[messageKey]string // the protocol pane's lines (protocol.go)
}

func newMemo() *memo {
	return &memo{footer: map[footerKey]string{}, messages: map[messageKey]string{}}
}
