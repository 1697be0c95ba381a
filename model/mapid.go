package model

import (
	"reflect"

	"github.com/kvizlab/kviz/model/kafka"
)

// mapID identifies a map by its header, so snapshots can tell a replaced map
// from the one they already hold without comparing contents.
func mapID(m map[string][]kafka.TP) uintptr { return reflect.ValueOf(m).Pointer() }
