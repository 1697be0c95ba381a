package tui

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
)

// The scenario files a lab was started with (kviz play FILE..., kviz serve
// FILE...) are in the demo picker, first, beside the shipped demos: a
// trainer who opened a demo goes back to their own file with o. Each is
// simulated once, before the lab starts (a bad file is reported on the
// command line), and shared: in a room every lab opens the same
// simulation, so the followers of a trainer who opens a file get it too.

// scenarioFile is one file the lab was started with.
type scenarioFile struct {
	info demo.DemoInfo // Name is the path as given
	sim  simulation
}

// WithFiles puts the simulated scenario files in the picker, in the order
// given (the lab itself opens on whatever it was made with).
func (a App) WithFiles(sims ...*model.Sim) App {
	a.files = nil
	for _, s := range sims {
		sc := s.Scenario()
		a.files = append(a.files, scenarioFile{info: demo.Info(sc.File, sc), sim: modelSim{s}})
	}
	return a
}

// fileInfos are the files' picker entries.
func (a App) fileInfos() []demo.DemoInfo {
	out := make([]demo.DemoInfo, len(a.files))
	for i, f := range a.files {
		out[i] = f.info
	}
	return out
}

// pickerCurrent is the picker entry of the scenario on screen: a file's
// path when it is one of the files, else the demo's name.
func (a App) pickerCurrent() string {
	for _, f := range a.files {
		if f.sim == a.sim || f.info.Name == a.sim.Scenario().File {
			return f.info.Name
		}
	}
	return a.sim.Scenario().Name
}

// openFile goes back to one of the files, from its first step.
func (a *App) openFile(path string) tea.Cmd {
	for _, f := range a.files {
		if f.info.Name != path {
			continue
		}
		a.mode, a.picker = modeLab, nil
		a.reset(f.sim)
		a.setStatus(fmt.Sprintf("opened %s — %s", filepath.Base(path), f.info.Title), false)
		return a.openAsAsked()
	}
	a.setStatus("no file "+path, true)
	return nil
}

// ModelSim is the model's simulation on screen, if the lab runs the model
// (kviz play lists the file it opened in the picker).
func (a App) ModelSim() (*model.Sim, bool) {
	s, ok := a.sim.(modelSim)
	return s.Sim, ok
}
