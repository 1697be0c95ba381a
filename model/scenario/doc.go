// Package scenario is kviz's scenario file format: it parses a file
// (Parse) into a Scenario, with line-numbered errors and "did you mean"
// suggestions, checks what a timeline event or a given start may say
// (CheckEvent, the given-start rules), writes a Scenario back (Format) and
// varies it under another assignor or protocol (WithStrategy). It knows the
// file, not the run: the engine (package model) simulates a Scenario.
package scenario
