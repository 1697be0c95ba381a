package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// Update handles one message. A panic here (a model bug on a strange
// scenario) becomes a status line instead of a dead workshop.
func (a App) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			a.setStatus(fmt.Sprintf("internal error: %v", r), true)
			m, cmd = a, nil
		}
	}()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.help.SetWidth(msg.Width)
	case tea.BackgroundColorMsg:
		a.setTheme(msg.IsDark(), a.styles.NoColor)
	case tea.ColorProfileMsg:
		a.setTheme(a.isDark, noColorProfile(msg.Profile))
	case tickMsg:
		return a.onTick(msg)
	case compareDoneMsg:
		if a.replies.take(replyCompare, msg.seq) && msg.sim == a.sim {
			a.compare = msg.table
		}
	case jobDoneMsg:
		cmd := a.onJobDone(msg)
		if load := a.quizLoad(); load != nil {
			cmd = tea.Batch(cmd, load)
		}
		return a, cmd
	case spinner.TickMsg:
		return a, a.onSpin(msg)
	case whatIfDoneMsg:
		if !a.replies.take(replyWhatIf, msg.seq) {
			break
		}
		if p := a.whatIf; msg.sim == a.sim && msg.step == a.step && p != nil && p.AtMs == msg.preview.AtMs && p.Member == msg.preview.Member {
			a.whatIf = msg.preview
		}
	case QuizAnswerMsg:
		a.answerQuiz(msg.Choice)
	case QuizModeMsg:
		a.quiz.on = msg.On
		return a, a.quizLoad()
	case quizDoneMsg:
		a.onQuizDone(msg)
	case RoomState:
		a.onRoomState(msg)
		return a, a.quizLoad() // the trainer may have turned quiz mode on
	case QuizTally:
		a.onQuizTally(msg)
	case RoomCount:
		a.seat.count = msg
	case TrainerPresence:
		a.onTrainerPresence(msg)
	case ledgerMsg:
		a.onLedger(msg)
	case frameSavedMsg:
		a.onFrameSaved(msg)
	case tea.KeyPressMsg:
		return withQuizLoad(a.onKey(msg))
	}
	return a, nil
}

func (a App) onTick(msg tickMsg) (tea.Model, tea.Cmd) {
	if msg.gen != a.playGen || !a.playing {
		return a, nil // stale: from a play session that was paused since
	}
	if a.nextShown(a.step, +1) == a.step {
		a.playing = false
		a.setStatus("end of the timeline", false)
		return a, nil
	}
	a.goTo(a.nextShown(a.step, +1))
	return a, a.tick()
}

func (a App) onKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &a.keys
	// Screens that take text get every typed key (q is a letter there);
	// ctrl+c still quits.
	if key.Matches(msg, k.Quit) && !typed(msg) {
		return a, tea.Quit // ctrl+c: always at once
	}
	switch {
	case a.prompt != nil:
		return a.onPromptKey(msg)
	case a.mode == modePicker:
		return a.onPickerKey(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return a.onQuit()
	case key.Matches(msg, k.Help):
		a.help.ShowAll = !a.help.ShowAll
		return a, nil
	case key.Matches(msg, k.Back):
		a.help.ShowAll = false
		a.mode = modeLab
		return a, nil
	}
	if a.heldByTrainer(msg) || a.onQuizKey(msg) {
		return a, nil
	}
	if a.mode == modeWhatIf {
		if done, cmd := a.onWhatIfKey(msg); done {
			return a, cmd
		}
	}
	if a.mode == modeCompare {
		if done, cmd := a.onCompareKey(msg); done {
			return a, cmd
		}
	}
	return a.onLabKey(msg)
}

// onLabKey is a key the lab itself answers: stepping, members, events,
// experiments, panes (what a mode in front did not take).
func (a App) onLabKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &a.keys
	switch {
	case key.Matches(msg, k.Next):
		a.goTo(a.nextShown(a.step, +1))
	case key.Matches(msg, k.Prev):
		a.goTo(a.nextShown(a.step, -1))
	case key.Matches(msg, k.First):
		a.goTo(0)
	case key.Matches(msg, k.Last):
		a.goTo(a.sim.Len() - 1)
	case key.Matches(msg, k.NextRebalance):
		a.jumpRebalance(+1)
	case key.Matches(msg, k.PrevRebalance):
		a.jumpRebalance(-1)
	case key.Matches(msg, k.Play):
		return a.togglePlay()
	case key.Matches(msg, k.Faster):
		a.speed = min(a.speed+1, len(speeds)-1)
		a.setStatus("speed "+a.speedLabel(), false)
	case key.Matches(msg, k.Slower):
		a.speed = max(a.speed-1, 0)
		a.setStatus("speed "+a.speedLabel(), false)
	case a.focus == paneFlow && a.hasFlow() && key.Matches(msg, k.Up, k.Down, k.ScrollUp, k.ScrollDown):
		a.scrollFlow(flowDelta(k, msg))
	case key.Matches(msg, k.Up):
		a.moveSelection(-1)
	case key.Matches(msg, k.Down):
		a.moveSelection(+1)
	case key.Matches(msg, k.Find):
		a.askFind()
	case key.Matches(msg, k.ScrollUp):
		a.moveSelection(-10)
	case key.Matches(msg, k.ScrollDown):
		a.moveSelection(+10)
	case key.Matches(msg, k.Pane):
		a.focus = a.nextPane()
	case key.Matches(msg, k.AddMember):
		a.askMember()
	case key.Matches(msg, k.Leave):
		return a, a.memberEvent("leave")
	case key.Matches(msg, k.Crash):
		return a, a.memberEvent("crash")
	case key.Matches(msg, k.Restart):
		return a, a.memberEvent("restart")
	case key.Matches(msg, k.AddPartitions):
		a.askPartitions()
	case key.Matches(msg, k.RemoveMembers):
		a.askRemoveMembers()
	case key.Matches(msg, k.Disconnect):
		a.askDisconnect()
	case key.Matches(msg, k.Wakeup):
		return a, a.memberEvent("wakeup")
	case key.Matches(msg, k.RestartAs):
		return a, a.restartAs()
	case key.Matches(msg, k.Strategy):
		return a, a.nextStrategy()
	case key.Matches(msg, k.Protocol):
		return a, a.nextProtocol()
	case key.Matches(msg, k.Compare):
		return a, a.toggleCompare()
	case key.Matches(msg, k.WhatIf):
		return a, a.openWhatIf()
	case key.Matches(msg, k.Open):
		a.openPicker()
	case key.Matches(msg, k.Follow):
		a.toggleFollow()
	case key.Matches(msg, k.WriteScenario):
		a.askWrite()
	case key.Matches(msg, k.SaveFrame):
		return a, a.saveFrame()
	}
	return a, nil
}
