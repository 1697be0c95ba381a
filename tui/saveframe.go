package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	framepkg "github.com/kvizlab/kviz/frame"
)

// frameSavedMsg reports where v wrote the frame.
type frameSavedMsg struct {
	svg, txt string
	kept     string // the earlier frame's file this one did not overwrite ("" for none)
	err      error
}

// saveFrame writes the screen as it is now (before the status line says
// so) as SVG and text into the working directory, off the event loop.
func (a App) saveFrame() tea.Cmd {
	content, w, h := a.Frame(), a.width, a.height
	base := fmt.Sprintf("kviz-%s-step%d", fileSlug(strings.TrimSuffix(filepath.Base(a.sim.Scenario().File), ".yaml")), a.step)
	return func() tea.Msg {
		g := framepkg.Parse(content, w, h)
		dir, err := os.Getwd()
		if err != nil {
			return frameSavedMsg{err: err}
		}
		// A frame saved before at this step keeps its files: this one
		// takes the next free name (…-step3-2.svg) and says so.
		name := filepath.Join(dir, base)
		free := name
		for n := 2; exists(free+".svg") || exists(free+".txt"); n++ {
			free = fmt.Sprintf("%s-%d", name, n)
		}
		msg := frameSavedMsg{svg: free + ".svg", txt: free + ".txt"}
		if free != name {
			msg.kept = filepath.Base(name + ".svg")
		}
		if err := writeNew(msg.svg, g.SVG()); err != nil {
			return frameSavedMsg{err: err}
		}
		if err := writeNew(msg.txt, []byte(g.Text())); err != nil {
			return frameSavedMsg{err: err}
		}
		return msg
	}
}

func (a *App) onFrameSaved(msg frameSavedMsg) {
	if msg.err != nil {
		a.setStatus("cannot save the frame: "+msg.err.Error(), true)
		return
	}
	status := fmt.Sprintf("saved %s and %s", msg.svg, filepath.Base(msg.txt))
	if msg.kept != "" { // first: a long path may be cut
		status = "kept the earlier " + msg.kept + "; " + status
	}
	a.setStatus(status, false)
}

// fileSlug keeps a scenario file's letters, digits and dashes, for a file name.
func fileSlug(name string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, name)
	if s = strings.Trim(s, "-"); s == "" {
		return "lab"
	}
	return s
}
