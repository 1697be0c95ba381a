// Package keymap holds every key of the lab as a key.Binding with its help
// text. The keys are a contract (issue 4): the TUI matches only these, the
// footer and the "?" screen render them, and the tests press them.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is every key the lab understands. Modal keys (Confirm, Back) are
// listed too, so that one table proves no key does two things.
type KeyMap struct {
	// Stepping through the timeline.
	Next          key.Binding
	Prev          key.Binding
	NextRebalance key.Binding
	PrevRebalance key.Binding
	First         key.Binding
	Last          key.Binding
	Play          key.Binding
	Faster        key.Binding
	Slower        key.Binding

	// Choosing a member.
	Up   key.Binding
	Down key.Binding
	// Find selects a member by id or by a partition it consumes.
	Find key.Binding

	// Events inserted at the current time.
	AddMember     key.Binding
	Leave         key.Binding
	Crash         key.Binding
	Restart       key.Binding
	AddPartitions key.Binding
	// Issue 23's events: an administrator removes members, one member is
	// cut off from the brokers, wakeup() interrupts its poll, a rolling
	// restart to the other group.protocol.
	RemoveMembers key.Binding
	Disconnect    key.Binding
	Wakeup        key.Binding
	RestartAs     key.Binding

	// Changing the experiment.
	Strategy key.Binding
	Protocol key.Binding
	Compare  key.Binding
	WhatIf   key.Binding
	Open     key.Binding // the demo picker
	// Import is kviz live's: the real group into the simulator, now.
	Import key.Binding

	// Predict, then reveal: the quiz stops before a rebalance's outcome.
	Quiz   key.Binding
	Answer key.Binding // 1–4: the choices of the question on screen
	Reveal key.Binding // only the trainer's, in a room: shows the room the answer

	// A room served over SSH, and frames for slides.
	Follow    key.Binding // only in a room with a trainer (kviz serve --trainer-key)
	SaveFrame key.Binding // not offered over SSH: it writes on the server
	// WriteScenario writes the scenario built so far to a file (not over SSH either).
	WriteScenario key.Binding

	// Moving around the screen.
	Pane       key.Binding
	ScrollUp   key.Binding
	ScrollDown key.Binding
	Confirm    key.Binding
	Back       key.Binding

	Help key.Binding
	Quit key.Binding
}

// DefaultKeyMap returns the lab's keys. It is a function, not a variable,
// so that disabling a binding in one screen cannot leak into another.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return KeyMap{
		Next:          b([]string{"right", "n", "space"}, "→/n/space", "next step"),
		Prev:          b([]string{"left", "b"}, "←/b", "previous step"),
		NextRebalance: b([]string{"]"}, "]", "next rebalance"),
		PrevRebalance: b([]string{"["}, "[", "prev rebalance"),
		First:         b([]string{"home", "g"}, "home/g", "first step"),
		Last:          b([]string{"end", "G"}, "end/G", "last step"),
		Play:          b([]string{"p"}, "p", "play/pause"),
		Faster:        b([]string{"+", "="}, "+", "faster"),
		Slower:        b([]string{"-", "_"}, "-", "slower"),

		Up:   b([]string{"up", "k"}, "↑/k", "member up"),
		Down: b([]string{"down", "j"}, "↓/j", "member down"),
		Find: b([]string{"/"}, "/", "find member"),

		AddMember:     b([]string{"a"}, "a", "add a member"),
		Leave:         b([]string{"d"}, "d", "member leaves"),
		Crash:         b([]string{"x"}, "x", "member crashes"),
		Restart:       b([]string{"r"}, "r", "member restarts"),
		AddPartitions: b([]string{"t"}, "t", "add partitions"),
		RemoveMembers: b([]string{"m"}, "m", "admin removes"),
		Disconnect:    b([]string{"u"}, "u", "cut network"),
		Wakeup:        b([]string{"Z"}, "Z", "wakeup member"),
		RestartAs:     b([]string{"R"}, "R", "roll protocol"),

		Strategy: b([]string{"s"}, "s", "next strategy"),
		Protocol: b([]string{"e"}, "e", "next protocol"),
		Compare:  b([]string{"c"}, "c", "compare mode"),
		WhatIf:   b([]string{"w"}, "w", "what-if"),
		Open:     b([]string{"o"}, "o", "open a demo"),
		Import:   b([]string{"i"}, "i", "import live"),

		Quiz:   b([]string{"z"}, "z", "quiz mode"),
		Answer: b([]string{"1", "2", "3", "4"}, "1–4", "answer the quiz"),
		Reveal: b([]string{"0"}, "0", "reveal (trainer)"),

		Follow:        b([]string{"f"}, "f", "follow trainer"),
		SaveFrame:     b([]string{"v"}, "v", "save frame"),
		WriteScenario: b([]string{"W"}, "W", "write scenario"),

		Pane:       b([]string{"tab"}, "tab", "next pane"),
		ScrollUp:   b([]string{"pgup"}, "pgup", "10 members up"),
		ScrollDown: b([]string{"pgdown"}, "pgdown", "10 members down"),
		// enter and esc act in whatever asks: the demo picker, a prompt,
		// compare mode's rows, the what-if preview.
		Confirm: b([]string{"enter"}, "enter", "open / accept"),
		Back:    b([]string{"esc"}, "esc", "back / cancel"),

		Help: b([]string{"?"}, "?", "full help"),
		Quit: b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// All lists every binding, in help order. Tests use it to prove that no
// key is bound twice.
func (k KeyMap) All() []key.Binding {
	var out []key.Binding
	for _, group := range k.FullHelp() {
		out = append(out, group...)
	}
	return out
}

// ShortHelp is the footer: the keys a newcomer needs in the first minute.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Prev, k.NextRebalance, k.Play, k.Up, k.WhatIf, k.Compare, k.Help, k.Quit}
}

// FullHelp is the "?" screen: time, members, experiments. Three columns
// so that it fits an 80-column terminal whole.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.NextRebalance, k.PrevRebalance, k.First, k.Last, k.Play, k.Faster, k.Slower, k.Quiz, k.Wakeup, k.RestartAs},
		{k.Up, k.Down, k.ScrollUp, k.ScrollDown, k.Find, k.AddMember, k.Leave, k.Crash, k.Restart, k.AddPartitions,
			k.RemoveMembers, k.Disconnect, k.Answer},
		{k.Strategy, k.Protocol, k.Compare, k.WhatIf, k.Open, k.Import, k.Confirm, k.Back, k.Pane, k.Help, k.Quit, k.Follow, k.Reveal, k.SaveFrame, k.WriteScenario},
	}
}
