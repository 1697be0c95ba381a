package model_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// The lab's run is scanned beside it (SimulateContext, inserts): its
// rebalances and outages are those the scan after the run finds
// (Simulate), for every demo, a scale group, and an insert of each.
func TestScanBesideTheRunFindsWhatTheScanAfterDoes(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		files[name] = data
	}
	y, err := modeltest.Scale{Members: 300, Partitions: 3000, Topics: 30, Strategy: "range-server", Given: true, Crash: true}.YAML()
	if err != nil {
		t.Fatal(err)
	}
	files["scale"] = []byte(y)
	for name, data := range files {
		sc, err := scenario.Parse(name+".yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		after, err := model.Simulate(sc)
		if err != nil {
			t.Fatal(err)
		}
		beside, err := model.SimulateContext(context.Background(), sc)
		if err != nil {
			t.Fatal(err)
		}
		sameScans(t, name, beside, after)
		if len(sc.Members) == 0 {
			continue
		}
		ev := scenario.Event{AtMs: 3000, Kind: "crash", Member: sc.Members[0].ID}
		if ins, err := after.InsertContext(context.Background(), ev); err == nil {
			// the insert was scanned beside; a Sim of the same timeline
			// without a scan is its reference
			ref, err := model.Simulate(ins.Scenario())
			if err != nil {
				t.Fatal(err)
			}
			sameScans(t, name+" + crash", ins, ref)
		}
	}
}

func sameScans(t *testing.T, name string, got, want *model.Sim) {
	t.Helper()
	if g, w := got.Rebalances(), want.Rebalances(); !reflect.DeepEqual(g, w) {
		t.Errorf("%s: rebalances scanned beside the run differ from the scan after it:\n%+v\nwant\n%+v", name, g, w)
	}
	if g, w := got.Outages(), want.Outages(); !reflect.DeepEqual(g, w) {
		t.Errorf("%s: outages scanned beside the run differ:\n%+v\nwant\n%+v", name, g, w)
	}
}
