package demo

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/kvizlab/kviz/model"
)

// Entry is one shipped demo as a list shows it: the lab's picker (`o`) and
// `kviz demos` read the same entries. Strategy and protocol are the
// model's, after its defaults (a demo that names only an assignor runs
// under that assignor's preferred protocol).
type Entry struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Examples []int  `json:"examples"` // the SEED-EXAMPLES.md examples it works through
	Strategy string `json:"strategy"`
	Protocol string `json:"protocol"`
	// Tags say what the demo is about, for filtering: its strategy and
	// protocol, "example 9" per example, and "producers", "cluster"
	// (brokers fail), "static" (group.instance.id) where they apply.
	Tags []string `json:"tags"`
	// Notes say what to watch (the scenario's notes:); the picker shows
	// them under the list. Not part of `kviz demos`' contract.
	Notes string `json:"-"`
}

// Tags besides strategy, protocol and examples.
const (
	TagProducers = "producers"
	TagCluster   = "cluster"
	TagStatic    = "static"
)

// exampleName is how a demo says which worked example it is: example-07-….
var exampleName = regexp.MustCompile(`^example-(\d+)-`)

// catalog parses every demo once: a shipped demo never changes while kviz runs.
var catalog = sync.OnceValues(func() ([]Entry, error) {
	var out []Entry
	for _, name := range Names() {
		data, _ := Get(name)
		sc, err := model.ParseScenario(name+".yaml", data)
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", name, err)
		}
		out = append(out, entryOf(name, sc))
	}
	return out, nil
})

// Catalog lists every shipped demo, sorted by name. An error means a
// shipped demo does not parse (a bug the demo tests catch first).
func Catalog() ([]Entry, error) {
	entries, err := catalog()
	if err != nil {
		return nil, err
	}
	out := slices.Clone(entries)
	for i := range out {
		out[i].Examples = slices.Clone(out[i].Examples)
		out[i].Tags = slices.Clone(out[i].Tags)
	}
	return out, nil
}

func entryOf(name string, sc *model.Scenario) Entry {
	e := Entry{Name: name, Title: sc.Title, Strategy: string(sc.Strategy), Protocol: string(sc.Protocol), Notes: sc.Notes, Examples: []int{}}
	if m := exampleName.FindStringSubmatch(name); m != nil {
		n, _ := strconv.Atoi(m[1])
		e.Examples = append(e.Examples, n)
	}
	e.Tags = []string{sc.Strategy, sc.Protocol}
	for _, n := range e.Examples {
		e.Tags = append(e.Tags, "example "+strconv.Itoa(n))
	}
	if sc.Flow != nil {
		e.Tags = append(e.Tags, TagProducers)
	}
	if brokerEvents(sc) {
		e.Tags = append(e.Tags, TagCluster)
	}
	if staticMembers(sc) {
		e.Tags = append(e.Tags, TagStatic)
	}
	return e
}

// brokerEvents: brokers fail or come back in the story.
func brokerEvents(sc *model.Scenario) bool {
	return slices.ContainsFunc(sc.Timeline, func(ev model.Event) bool {
		return ev.Kind == "fail_broker" || ev.Kind == "recover_broker"
	})
}

// staticMembers: some member has a group.instance.id.
func staticMembers(sc *model.Scenario) bool {
	if slices.ContainsFunc(sc.Members, func(m model.MemberSpec) bool { return m.Instance != "" }) {
		return true
	}
	return slices.ContainsFunc(sc.Timeline, func(ev model.Event) bool { return ev.Kind == "join" && ev.Instance != "" })
}
