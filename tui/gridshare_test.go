package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// stepToText presses n until the step's narration starts with prefix.
func stepToText(t *testing.T, a App, prefix string) App {
	t.Helper()
	for i := 0; i < 200; i++ {
		if strings.HasPrefix(a.sim.StepLine(a.Step()).Text, prefix) {
			return a
		}
		before := a.Step()
		a = realDrive(a, press("n"))
		require.NotEqual(t, before, a.Step(), "no step says %q", prefix)
	}
	t.Fatalf("no step says %q", prefix)
	return a
}

// The grid says which member holds which records: after c3's fetch in the
// three-member demo, c1 holds t0-0's offsets 0–2 and c3 holds 3–5, each
// under its lock, at both presenter sizes; every word the model gives is
// on screen, in its holder's colour.
func TestShareGridShowsWhoHoldsWhichRecords(t *testing.T) {
	for _, size := range presenterSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a := shippedDemoApp(t, "share-three-members", size[0], size[1])
			a = stepToText(t, a, "c3 acquires")
			s := screen(a)
			srs := a.sim.(modelSim).ShareRecords(a.Step())
			require.Len(t, srs, 2)
			for _, sr := range srs {
				for _, w := range sr.Words() {
					assert.Contains(t, s, w.Long, "%s's %q", sr.Name(), w.Long)
				}
			}
			assert.Regexp(t, `t0-0  start 0  c1 ▮▮▮ 0–2 \(lock 29\.\d s\)  c3 ▮▮▮ 3–5 \(lock 29\.\d s\)`, s)
			assert.Contains(t, s, "t0-1  start 0  ready 0–1")
			assertFits(t, a, size[0], size[1])
			assert.Empty(t, cutLine(s, size[0]))
			// c3's words wear c3's colour, as its row does.
			_, color := a.info.letter("c3")
			for _, w := range srs[0].Words() {
				if w.Member == "c3" {
					painted := a.styles.brushes.fg[color%len(a.styles.brushes.fg)].paint(w.Long)
					assert.NotEqual(t, w.Long, painted, "the lab's styles paint")
					assert.Contains(t, a.View().Content, painted, "c3's records in its colour")
				}
			}
		})
	}
}

// The crash demo: c1's records stay ACQUIRED by c1 after it crashes, come
// back AVAILABLE (delivered once) when the lock times out, and go to c2 as
// their second delivery.
func TestShareGridFollowsALockThroughACrash(t *testing.T) {
	a := shippedDemoApp(t, "share-crash-locks", 120, 40)
	a = stepToText(t, a, "c1 crashes")
	assert.Regexp(t, `t0-0  start 0  c1 ▮▮▮▮▮ 0–4 \(lock 26\.\d s\)`, screen(a), "a crashed member still holds its records")
	a = stepToText(t, a, "t0-0 offsets 0–4: ACQUIRED → AVAILABLE")
	assert.Contains(t, screen(a), "t0-0  start 0  ready 0–4 (delivered 1 of 5)")
	a = stepToText(t, a, "c2 acquires")
	assert.Regexp(t, `c2 ▮▮▮▮▮ 0–4 \(lock 29\.\d s, delivery 2 of 5\)`, screen(a))
}

// sixHolders: six members on two partitions of forty records each,
// holding runs of different lengths, one record rejected in the middle.
const sixHolders = `topics: {orders: 2}
group: {id: queue, type: share, kafka_version: "4.2"}
members: [{id: alpha}, {id: bravo}, {id: charlie}, {id: delta}, {id: echo}, {id: foxtrot}]
timeline:
  - {at_ms: 10000, records: {topic: orders, partition: 0, count: 40}}
  - {at_ms: 10000, records: {topic: orders, partition: 1, count: 40}}
  - {at_ms: 11000, fetch: {id: alpha, max_records: 2}}
  - {at_ms: 11100, fetch: {id: bravo, max_records: 3}}
  - {at_ms: 11200, fetch: {id: charlie, max_records: 2}}
  - {at_ms: 11300, fetch: {id: delta, max_records: 12}}
  - {at_ms: 11400, fetch: {id: echo, max_records: 2}}
  - {at_ms: 11500, fetch: {id: foxtrot, max_records: 2}}
  - {at_ms: 12000, acknowledge: {id: delta, topic: orders, partition: 0, offsets: [5], type: reject}}
`

func sixHoldersApp(t *testing.T, w, h int) App {
	t.Helper()
	sc, err := scenario.Parse("six.yaml", []byte(sixHolders))
	require.NoError(t, err)
	a, err := New(sc)
	require.NoError(t, err)
	var m tea.Model = a
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return stepToText(t, m.(App), "orders-0 offset 5: ACQUIRED → ARCHIVED")
}

// Where the long words need more lines than the grid can spare, the short
// ones say the same holders and offsets; a line breaks between words,
// never inside one, at every size the lab opens at.
func TestShareGridDegradesTruthfully(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}, {64, 26}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a := sixHoldersApp(t, size[0], size[1])
			s := screen(a)
			assertFits(t, a, size[0], size[1])
			assert.Empty(t, cutLine(s, size[0]))
			srs := a.sim.(modelSim).ShareRecords(a.Step())
			require.Len(t, srs, 2)
			for _, sr := range srs {
				// Every share-partition is on screen, with each of its
				// words long or short, or the grid says how many it left out.
				if !strings.Contains(s, sr.Name()+"  start ") {
					assert.Regexp(t, `\+\d more share-partition`, s)
					continue
				}
				for _, w := range sr.Words() {
					if !strings.Contains(s, w.Long) {
						assert.Contains(t, s, w.Short, "%s: neither %q nor %q", sr.Name(), w.Long, w.Short)
					}
				}
			}
		})
	}
	// At 120×40 there is room for the long words, wrapped under the first.
	s := screen(sixHoldersApp(t, 120, 40))
	assert.Regexp(t, `orders-0  start 0  delta ▮▮▮▮▮ 0–4 \(lock 29\.\d s\)  archived 5 \(delivered 1 of 5\)  delta ▮▮▮▮▮▮ 6–11 `, s,
		"delta's twelve records around the one it rejected")
	assert.Regexp(t, `\n│             echo ▮▮ 12–13 `, s, "the line goes on under the first word")
}

// shareLines on its own: more share-partitions than lines cuts at a
// share-partition, short, and counts the rest.
func TestShareLinesCountWhatTheyLeaveOut(t *testing.T) {
	st := NewStyles(true)
	st.NoColor = true
	g := &gridData{Topics: []gridTopic{{Name: "t0", Partitions: 6}}, Members: []gridMember{{ID: "c1"}}}
	g.Topics[0].Share = make([]shareCell, 6)
	for p := range 6 {
		sr := model.ShareRecords{TP: kafka.TP{Topic: "t0", Partition: int32(p)}, Start: 4, LogEnd: 9, Limit: 5, Cap: 2000,
			Runs: []model.ShareRun{{First: 4, Last: 6, State: 1, Member: "c1", LockLeftMs: 2500, MaxDeliveries: 1, MinDeliveries: 1}, {First: 7, Last: 8, Fresh: true}}}
		g.Topics[0].Share[p] = shareCell{Known: true, Records: &sr}
	}
	plain := func(lines []string) []string {
		for i := range lines {
			lines[i] = ansi.Strip(lines[i])
		}
		return lines
	}
	all := plain(shareLines(g, &st, 80, 7))
	require.Len(t, all, 6, "six lines: one a share-partition")
	assert.Equal(t, "  t0-0  start 4  c1 ▮▮▮ 4–6 (lock 2.5 s)  ready 7–8", all[0])
	// At 44 columns the long words take two lines each: twelve.
	assert.Len(t, plain(shareLines(g, &st, 44, 13)), 12)
	short := plain(shareLines(g, &st, 44, 7))
	require.Len(t, short, 6, "the short words take one line each")
	assert.Equal(t, "  t0-5  start 4  c1 4–6  ready 7–8", short[5])
	// At 30 not even those fit on one line: two share-partitions and the
	// count of the rest.
	narrow := plain(shareLines(g, &st, 30, 7))
	assert.Equal(t, []string{"  t0-0  start 4  c1 4–6", "        ready 7–8", "  t0-1  start 4  c1 4–6", "        ready 7–8", "  +4 more share-partitions"}, narrow)
	cut := plain(shareLines(g, &st, 80, 4))
	require.Len(t, cut, 3)
	assert.Equal(t, "  +4 more share-partitions", cut[2])
	assert.Nil(t, shareLines(g, &st, 80, 1), "no room: the member keeps its row")
}

// c on a share group lists simple under each release, the cursor on the
// one the lab runs; enter switches the lab to the selected release, as it
// switches strategy for other groups.
func TestShareCompareEnterSwitchesRelease(t *testing.T) {
	a := shippedDemoApp(t, "share-simple-42", 120, 40)
	a = realDrive(a, press("c"))
	require.Equal(t, modeCompare, a.mode)
	require.Len(t, a.compare.Rows, 3)
	assert.Equal(t, "4.2+", a.compare.Rows[a.compare.Cursor].Variant.Label, "the cursor starts on the release on screen")
	s := screen(a)
	for _, name := range []string{"simple 4.0", "simple 4.1", "simple 4.2+"} {
		assert.Contains(t, s, name)
	}
	a = realDrive(a, press("up"), press("up"), press("enter"))
	assert.Equal(t, modeLab, a.mode)
	assert.Equal(t, "4.0.0", a.Scenario().KafkaVersion.String(), "enter on 4.0 runs the lab under 4.0")
	assert.Contains(t, screen(a), "kafka 4.0.0")
	a = realDrive(a, press("c"))
	assert.Equal(t, "4.0", a.compare.Rows[a.compare.Cursor].Variant.Label)
	a = realDrive(a, press("down"), press("enter"))
	assert.Equal(t, "4.1.0", a.Scenario().KafkaVersion.String())
	assertFits(t, a, 120, 40)
}

// A real program on the crash demo: stepping on shows c1's locked records
// in the grid; c, ↑ and enter switch the lab to Kafka 4.1.
func TestSmokeShareGridAndReleaseSwitch(t *testing.T) {
	data, ok := demo.Get("share-crash-locks")
	require.True(t, ok)
	sc, err := scenario.Parse("share-crash-locks.yaml", data)
	require.NoError(t, err)
	a, err := New(sc)
	require.NoError(t, err)
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii), tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Assignment")) }, teatest.WithDuration(3*time.Second))
	for range 24 { // to c1's fetch
		tm.Send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	}
	// The renderer sends only the cells that change: wait for the blocks.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("▮▮▮▮▮ 0–4 (lock")) }, teatest.WithDuration(5*time.Second))
	tm.Send(tea.KeyPressMsg{Code: 'c', Text: "c"})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("simple 4.1")) }, teatest.WithDuration(10*time.Second))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("re-simulated with simple under Kafka 4.1.0")) }, teatest.WithDuration(10*time.Second))
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final, ok := tm.FinalModel(t, teatest.WithFinalTimeout(3*time.Second)).(App)
	require.True(t, ok)
	assert.Equal(t, "4.1.0", final.Scenario().KafkaVersion.String())
}
