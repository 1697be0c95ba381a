package serve

import tea "charm.land/bubbletea/v2"

// The largest window a session draws. A client names its own window size,
// and a hostile one could ask for a million columns: the lab and Bubble
// Tea's renderer would build that many cells on every frame.
const (
	maxColumns = 500
	maxRows    = 200
)

func clampSize(w, h int) (int, int) {
	return max(0, min(w, maxColumns)), max(0, min(h, maxRows))
}

// sizeFilter clamps window sizes before the program (and its renderer)
// sees them. It replaces wish's own filter, so it keeps what that one
// does: a remote session cannot be suspended, ctrl+z resumes at once.
func sizeFilter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		msg.Width, msg.Height = clampSize(msg.Width, msg.Height)
		return msg
	case tea.SuspendMsg:
		return tea.ResumeMsg{}
	}
	return msg
}
