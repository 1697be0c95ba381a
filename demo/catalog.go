package demo

import (
	"fmt"

	"github.com/kvizlab/kviz/model/scenario"
)

// DemoInfo describes one shipped demo scenario: what `kviz demos` lists and
// a demo picker shows.
type DemoInfo struct {
	Name     string
	Title    string
	Examples []int // worked examples of SEED-EXAMPLES.md it shows
	Strategy string
	Protocol string
	Open     scenario.LabOpen // the lab hint, "" = none
	// Given: it starts from a given state; Producers: it has a data path.
	Given, Producers bool
	Brokers          int
	// Notes say what to watch (the scenario's notes:); Tags what the demo
	// is about, for the lab's picker to filter on (demo_tags.go).
	Notes string
	Tags  []string
}

// Demos describes every shipped demo, in name order. A demo that does not
// parse is an error naming it (a build whose assignor is missing).
func Demos() ([]DemoInfo, error) {
	var out []DemoInfo
	for _, name := range Names() {
		data, _ := Get(name)
		sc, err := scenario.Parse(name+".yaml", data)
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", name, err)
		}
		out = append(out, Info(name, sc))
	}
	return out, nil
}

// Info describes scenario sc under name: a shipped demo's entry, or a
// trainer's own file beside them (the lab's picker).
func Info(name string, sc *scenario.Scenario) DemoInfo {
	return DemoInfo{Name: name, Title: sc.Title, Examples: sc.Examples, Strategy: sc.Strategy,
		Protocol: sc.Protocol, Open: sc.Open, Given: sc.GivenStart(), Producers: sc.Flow != nil, Brokers: sc.Brokers,
		Notes: sc.Notes, Tags: demoTags(sc)}
}
