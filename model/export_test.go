package model

// SetReplayCycles turns replayed cycles (quiet_replay.go) on or off for a
// test, and returns what undoes it.
func SetReplayCycles(on bool) (restore func()) {
	was := replayCycles.Swap(on)
	return func() { replayCycles.Store(was) }
}

// Replays counts the replays of cycles made so far, by every run.
func Replays() int64 { return replays.Load() }

// SetCheckTargetDeltas makes every run check each target delta the
// history logs by against the whole maps (it panics on a miss).
func SetCheckTargetDeltas(on bool) (restore func()) {
	was := checkTargetDeltas.Swap(on)
	return func() { checkTargetDeltas.Store(was) }
}
