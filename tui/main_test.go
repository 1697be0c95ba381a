package tui

import (
	"context"
	"os"
	"testing"

	"github.com/kvizlab/kviz/model/scenario"
)

func TestMain(m *testing.M) {
	os.Unsetenv("NO_COLOR") // the goldens are drawn with colour styles
	os.Exit(m.Run())
}

// simulateFake re-simulates on the scripted model, so tests on it stay on it
// after s, e or c.
func simulateFake(_ context.Context, sc *scenario.Scenario) (simulation, error) {
	return newFakeSim(sc), nil
}
