package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model"
)

// Each worked example's quiz asks its lesson (issue 19 item 8).
func TestEachExampleAsksItsLesson(t *testing.T) {
	for name, kind := range map[string]model.QuizKind{
		"example-02-range-five-topics": model.QuizCount,
		"example-11-failover":          model.QuizTakeover,
	} {
		t.Run(name, func(t *testing.T) {
			var kinds []model.QuizKind
			for _, q := range simDemo(t, name).Quiz() {
				kinds = append(kinds, q.Kind)
			}
			assert.Contains(t, kinds, kind)
		})
	}
}

// checkDataAnswer checks the data path's questions against the flow.
func checkDataAnswer(t quizT, sim *model.Sim, q model.Question, where string) {
	t.Helper()
	switch q.Kind {
	default:
		t.Errorf("%s: unknown kind", where)
	}
}
