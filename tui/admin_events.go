package tui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model/scenario"
)

// The keys of issue 23's events (m, u, W, R): each inserts the event a
// scenario's timeline would hold, through insertThen, so the lab equals the
// file edited the same way.

// askRemoveMembers is m: an administrator's RemoveMembersFromConsumerGroup
// (kafka-consumer-groups --delete-members): by group.instance.id, or all.
func (a *App) askRemoveMembers() {
	def, why := "all", "every member (by the member ids DescribeGroups lists)"
	for _, m := range a.view().Members {
		if m.ID == a.selected && m.InstanceID != "" {
			def, why = m.InstanceID, a.selected+"'s group.instance.id"
		}
	}
	a.prompt = newPrompt("an admin removes members", a.isDark, a.width, finishRemoveMembers,
		promptField{"instances", def, "group.instance.ids, comma-separated, or all: " + why})
}

func finishRemoveMembers(a *App, values []string) (tea.Cmd, error) {
	v := strings.TrimSpace(values[0])
	ev := scenario.Event{Kind: "remove_members"}
	if v == "all" {
		ev.All = true
	} else {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				ev.Instances = append(ev.Instances, s)
			}
		}
		if len(ev.Instances) == 0 {
			return nil, fmt.Errorf("give group.instance.ids (i1,i2) or all")
		}
	}
	return a.insert(ev, ev.Label(), nil), nil
}

// askDisconnect is u: the selected member loses its network link to the
// brokers for a while, its process still running.
func (a *App) askDisconnect() {
	if a.selected == "" {
		a.setStatus("select a member first (↑/↓)", true)
		return
	}
	if !a.running(a.selected) {
		a.setStatus(a.selected+" is not running", true)
		return
	}
	a.prompt = newPrompt("cut "+a.selected+" off", a.isDark, a.width, finishDisconnect,
		promptField{"ms", "60000", "how long " + a.selected + " cannot reach any broker (longer than its session timeout: the group removes it)"})
}

func finishDisconnect(a *App, values []string) (tea.Cmd, error) {
	ms, err := strconv.ParseInt(strings.TrimSpace(values[0]), 10, 64)
	if err != nil || ms <= 0 {
		return nil, fmt.Errorf("%q is not a positive number of ms", values[0])
	}
	ev := scenario.Event{Kind: "disconnect", Member: a.selected, Ms: ms}
	return a.insert(ev, ev.Label(), nil), nil
}

// restartAs is R: a rolling restart of the selected member to the other
// group.protocol (classic ↔ consumer).
func (a *App) restartAs() tea.Cmd {
	if a.selected == "" {
		a.setStatus("select a member first (↑/↓)", true)
		return nil
	}
	sc := a.sim.Scenario()
	proto := sc.OtherProtocol(a.selected, a.view().TimeMs)
	ev := scenario.Event{Kind: "restart", Member: a.selected, Settings: scenario.MemberSettings{Protocol: proto}}
	return a.insertThen(ev, ev.Label(), func(a *App, err error) { a.setStatus(err.Error(), true) }, nil)
}
