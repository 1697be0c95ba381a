package tui

import (
	"os"
	"testing"

	"github.com/kvizlab/kviz/model"
)

// TestMain makes re-simulation (s, e, c) use the scripted model, so these
// tests pin the lab's behaviour, not the model's. model_test.go runs the
// lab on the real model and the default demo.
func TestMain(m *testing.M) {
	os.Unsetenv("NO_COLOR")
	simulateFn = func(sc *model.Scenario) (simulation, error) { return newFakeSim(sc), nil }
	os.Exit(m.Run())
}
