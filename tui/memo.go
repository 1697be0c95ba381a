package tui

// memo caches what is costly to draw and rarely changes; the App's copies
// share it (Bubble Tea runs Update and View on one goroutine).
type memo struct {
	footer map[footerKey]string

	gridKey     gridKey
	grid        *gridData
	gridTextKey gridTextKey
	gridText    []string

	messages map[messageKey]string // the protocol pane's lines (protocol.go)
}

func newMemo() *memo {
	return &memo{footer: map[footerKey]string{}, messages: map[messageKey]string{}}
}
