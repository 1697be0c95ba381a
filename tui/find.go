package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"
)

// `/` finds a member by id (part of one, as model.GroupView.Find reads
// it) or by a partition it consumes, revokes or waits for ("orders-3"),
// and selects it; asking again with the same words selects the next
// match. A grid too wide for its topics then starts at the partition's
// topic. The search is the model's: the lab only moves the selection.

// askFind opens the prompt for `/`; enter alone repeats the last search.
func (a *App) askFind() {
	why := "a member id, or part of one, or a partition: orders-3"
	if a.findQuery != "" {
		why = fmt.Sprintf("enter alone finds the next match of %q; or a member id, or a partition: orders-3", a.findQuery)
	}
	a.prompt = newPrompt("find", a.isDark, a.width, finishFind, promptField{"member or partition", "", why})
}

func finishFind(a *App, values []string) (tea.Cmd, error) {
	q := values[0]
	if q == "" {
		q = a.findQuery
	}
	if q == "" {
		return nil, fmt.Errorf("type a member id or a partition (orders-3)")
	}
	v := a.view()
	found := v.Find(q)
	if len(found) == 0 {
		return nil, fmt.Errorf("no member or partition matches %q in this step", q)
	}
	// The match after the selected one, so that enter on the same words
	// walks through them all.
	k := 0
	if q == a.findQuery {
		if cur := slices.IndexFunc(found, func(i int) bool { return v.Members[i].ID == a.selected }); cur >= 0 {
			k = (cur + 1) % len(found)
		}
	}
	a.prompt = nil
	a.findQuery = q
	a.selected = v.Members[found[k]].ID
	a.findTopic = ""
	if topic, _, ok := v.PartitionQuery(q); ok {
		a.findTopic = topic
	}
	a.setStatus(fmt.Sprintf("%s: %s (%d of %d)", q, a.selected, k+1, len(found)), false)
	return nil, nil
}
