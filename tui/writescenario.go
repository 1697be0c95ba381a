package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model/scenario"
)

// `W` writes the scenario built so far — the file's own events and those
// added with keys (a, d, x, r, t), the strategy and protocol chosen with
// s and e — as a scenario file (scenario.Format), to a path the prompt
// asks for. An existing file is never overwritten: the prompt stays open
// and says so. `q` with events not yet written asks once (q again quits).

// savedEvents is how many timeline events the scenario had when it was
// opened or last written: more now are unsaved.
func (a *App) markSaved() {
	a.savedEvents, a.quitAsked = len(a.sim.Scenario().Timeline), false
}

// unsaved reports whether keys added events that W has not written.
func (a *App) unsaved() bool { return len(a.sim.Scenario().Timeline) > a.savedEvents }

// askWrite opens the prompt for `W`, with a free name in the working
// directory filled in.
func (a *App) askWrite() {
	sc := a.sim.Scenario()
	base := fileSlug(strings.TrimSuffix(filepath.Base(sc.File), ".yaml"))
	if base == "lab" && sc.Name != "" {
		base = fileSlug(sc.Name)
	}
	name := freeName(base+"-lab", ".yaml")
	a.prompt = newPrompt("write the scenario", a.isDark, a.width, finishWrite,
		promptField{"file", name, fmt.Sprintf("%s with the events added here; an existing file is never overwritten", plural(len(sc.Timeline), "event"))})
}

// freeName is base+ext, or base-2+ext, base-3+ext, … : the first that does
// not exist in the working directory.
func freeName(base, ext string) string {
	name := base + ext
	for n := 2; exists(name); n++ {
		name = fmt.Sprintf("%s-%d%s", base, n, ext)
	}
	return name
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func finishWrite(a *App, values []string) (tea.Cmd, error) {
	path := values[0]
	if path == "" {
		return nil, fmt.Errorf("the scenario needs a file name")
	}
	data, err := scenario.Format(a.sim.Scenario())
	if err != nil {
		return nil, fmt.Errorf("cannot write this scenario: %v", err)
	}
	if err := writeNew(path, data); err != nil {
		return nil, err
	}
	a.prompt = nil
	a.markSaved()
	a.setStatus(fmt.Sprintf("wrote %s (%s): kviz play %s opens it", path, plural(a.savedEvents, "event"), path), false)
	return nil, nil
}

// writeNew writes data to a file that must not exist yet.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: choose another name (it is not overwritten)", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// onQuit is q: with unsaved events it asks once, else it quits.
func (a App) onQuit() (tea.Model, tea.Cmd) {
	// Over SSH nothing can be written (W is off): q quits as it did.
	if a.unsaved() && !a.quitAsked && a.keys.WriteScenario.Enabled() {
		a.quitAsked = true
		n := len(a.sim.Scenario().Timeline) - a.savedEvents
		a.setStatus(fmt.Sprintf("%s added here not written: W writes the scenario, q again quits", plural(n, "event")), true)
		return a, nil
	}
	return a, tea.Quit
}
