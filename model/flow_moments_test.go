package model_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func isMoment(k kafka.StepKind) bool { return k.IsDataPath() }

// Example 19's moments are steps, each with the data path as its text
// says: records landing, A reading and committing 4, A reading 2 after its
// restart, B-earliest and B-latest starting and reading 6 and 0. B-latest
// commits 6 though it read nothing: commitSync() with no arguments commits
// SubscriptionState.allConsumed(), every assigned partition's position, a
// reset one included (ClassicKafkaConsumer.commitSync,
// ConsumerCoordinator.commitOffsetsSync).
func TestExample19MomentsAreSteps(t *testing.T) {
	sim := simDemo(t, "example-19-offsets")
	produced := steps(sim, kafka.KindRecordsProduced, "")
	require.Len(t, produced, 2)
	for i, want := range []int64{4, 6} {
		p, ok := sim.View(produced[i].Index).Flow().Partition("t0", 0)
		require.True(t, ok)
		assert.Equal(t, want, p.LogEnd, "log end at %s", produced[i].Text)
		assert.Contains(t, produced[i].Text, "ends at offset "+strconv.FormatInt(want, 10))
	}

	read := steps(sim, kafka.KindRecordsConsumed, "C0")
	var four, two *model.Step
	for i := range read {
		p, _ := sim.View(read[i].Index).Flow().Partition("t0", 0)
		switch p.Committed {
		case 4:
			four = &read[i]
		case 6:
			two = &read[i]
		}
	}
	require.NotNil(t, four, "A reads 4 and commits them")
	require.NotNil(t, two, "A reads 2 after its restart")
	assert.Contains(t, four.Text, "reads 4 records")
	assert.Contains(t, two.Text, "committed offset 4 and reads 2 records")
	assert.Greater(t, two.TimeMs, int64(20000), "after the restart at 20 s")

	started := steps(sim, kafka.KindReaderStarted, "")
	require.Len(t, started, 2)
	assert.Contains(t, started[0].Text, "B-earliest")
	assert.Contains(t, started[1].Text, "B-latest")
	assert.Equal(t, int64(30000), started[0].TimeMs)

	readers := map[string]model.Step{}
	for _, st := range steps(sim, kafka.KindRecordsConsumed, "") {
		for _, g := range []string{"B-earliest", "B-latest"} {
			if strings.HasPrefix(st.Text, g+" ") {
				readers[g] = st
			}
		}
	}
	for g, want := range map[string]int64{"B-earliest": 6, "B-latest": 0} {
		st, ok := readers[g]
		require.True(t, ok, "%s's reading is a step", g)
		for _, r := range sim.View(st.Index).Flow().Readers {
			if r.Group == g {
				assert.Equal(t, want, r.Read, g)
				assert.Equal(t, int64(6), r.Committed, "%s commits its position, 6", g)
			}
		}
	}
	assert.Contains(t, readers["B-latest"].Text, "allConsumed")
	for i := 0; i < sim.Len(); i++ {
		if st := sim.StepLine(i); isMoment(st.Kind) {
			assert.NotEmpty(t, st.Text)
		}
	}
}

// The moments change nothing in the group: without the data path the
// group's steps are the same, up to where that trace ends (it has no
// reason to go on to the readers' start).
func TestMomentsLeaveTheGroupAlone(t *testing.T) {
	data, _ := demo.Get("example-19-offsets")
	sc, err := scenario.Parse("x.yaml", data)
	require.NoError(t, err)
	with, err := model.Simulate(sc)
	require.NoError(t, err)
	bare := *sc
	bare.Flow = nil
	without, err := model.Simulate(&bare)
	require.NoError(t, err)
	j := 0
	for i := 0; i < with.Len() && j < without.Len(); i++ {
		a := with.StepLine(i)
		if isMoment(a.Kind) {
			continue
		}
		b := without.StepLine(j)
		j++
		assert.Equal(t, [4]any{b.TimeMs, b.Kind, b.Member, b.Text}, [4]any{a.TimeMs, a.Kind, a.Member, a.Text}, "step %d", i)
	}
	assert.Equal(t, without.Len(), j)
}

// With producers: the data flows all the time and no moment is a step.
func TestNoMomentsWithProducers(t *testing.T) {
	sim := simDemo(t, "producers")
	for i := 0; i < sim.Len(); i++ {
		if st := sim.StepLine(i); isMoment(st.Kind) {
			t.Fatalf("step %d is a data-path moment in a scenario with producers: %s", i, st.Text)
		}
	}
}
