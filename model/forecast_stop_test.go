package model_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// A forecast runs its fork only until the outcome is known
// (forecastStop); the outcome is the one the whole run gives, on every
// demo, for a leave, a crash and a join at moments across each run.
func TestForecastStopsWhereTheOutcomeIsKnown(t *testing.T) {
	sims := demoAndScaleSims(t,
		modeltest.Scale{Members: 60, Partitions: 600, Topics: 12, Strategy: "uniform", Given: true, Crash: true},
		modeltest.Scale{Members: 40, Partitions: 400, Topics: 4, Strategy: "cooperative-sticky", Given: true, Crash: true},
		modeltest.Scale{Members: 30, Partitions: 300, Topics: 3, Strategy: "range-server", Given: true, Crash: true},
		// long enough after its first events for the scan, batches
		// behind the run, to stop it early
		modeltest.Scale{Members: 800, Partitions: 1600, Topics: 2, Strategy: "uniform", Given: true, Crash: true})
	stopped := 0
	for name, sim := range sims {
		for k := range 5 {
			i := k * (sim.Len() - 1) / 4
			v := sim.View(i)
			evs := []scenario.Event{{AtMs: v.TimeMs, Kind: "join", Member: "c9"}}
			for _, m := range v.Members {
				evs = append(evs, scenario.Event{AtMs: v.TimeMs, Kind: "leave", Member: m.ID},
					scenario.Event{AtMs: v.TimeMs, Kind: "crash", Member: m.ID})
				break
			}
			for _, ev := range evs {
				what := fmt.Sprintf("%s: %s %s at %d ms", name, ev.Kind, ev.Member, ev.AtMs)
				f, ferr := sim.Forecast(ev)
				fork, err := sim.Insert(ev)
				if (err == nil) != (ferr == nil) {
					t.Fatalf("%s: the whole run says %v, the forecast %v", what, err, ferr)
				}
				if err != nil {
					continue
				}
				if want := fork.OutcomeOfEvent(ev.AtMs); !reflect.DeepEqual(f.Outcome, want) {
					t.Fatalf("%s:\nforecast   %+v\nwhole run  %+v", what, f.Outcome, want)
				}
				if f.Sim.Len() < fork.Len() {
					stopped++
				}
			}
		}
	}
	if stopped == 0 {
		t.Fatal("no forecast stopped before the end of its run")
	}
	t.Logf("%d forecasts stopped early", stopped)
}
