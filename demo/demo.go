// Package demo holds the scenarios that ship with kviz: the lab's default
// story and the worked examples trainers open by name (demo:NAME).
package demo

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// DefaultName is the scenario the lab opens with.
const DefaultName = "lab"

// Default returns the lab's default scenario.
func Default() (name string, data []byte) {
	data, _ = Get(DefaultName)
	return DefaultName, data
}

// Names lists the demo scenarios, sorted.
func Names() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Get returns a demo scenario's YAML by name (with or without ".yaml").
func Get(name string) ([]byte, bool) {
	name = strings.TrimSuffix(name, ".yaml")
	if name == "" || strings.ContainsAny(name, "/\\") {
		return nil, false
	}
	data, err := files.ReadFile(name + ".yaml")
	return data, err == nil
}
