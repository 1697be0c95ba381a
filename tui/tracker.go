package tui

// The lab's background work (a recomputation, compare's rows, the what-if
// forecasts, the quiz's questions) runs as commands; each request is
// tagged, and its reply comes back as a message with that tag. A reply
// whose tag is not the one awaited is stale — a newer request superseded
// it, or the simulation it was about was replaced — and is dropped.

// reply is a kind of background reply the lab awaits.
type reply int

const (
	replyJob     reply = iota // a recomputation (recompute.go)
	replyCompare              // compare mode's rows (compare.go)
	replyWhatIf               // the what-if preview's forecasts (whatif.go)
	replyQuiz                 // the questions of the simulation on screen (quiz.go)
	replyKinds
)

// tracker tags every background request and keeps, per kind of reply, the
// tag awaited. It is a plain value: each copy of an App has its own.
type tracker struct {
	sent    int             // requests made so far: the last tag given
	waiting [replyKinds]int // per kind: the tag awaited, 0 for none
}

// next is a new tag, not awaited yet (a recomputation is awaited once it
// starts).
func (t *tracker) next() int {
	t.sent++
	return t.sent
}

// send tags a new request of kind k, the one awaited from now on.
func (t *tracker) send(k reply) int {
	t.waiting[k] = t.next()
	return t.waiting[k]
}

// awaited is the tag awaited for kind k (0: none).
func (t *tracker) awaited(k reply) int { return t.waiting[k] }

// await makes tag the one awaited for kind k again (0: none); a
// recomputation cancelled falls back to the one it built on.
func (t *tracker) await(k reply, tag int) { t.waiting[k] = tag }

// awaits reports whether a reply of kind k is on its way.
func (t *tracker) awaits(k reply) bool { return t.waiting[k] != 0 }

// take reports whether a reply of kind k with tag is the one awaited; if
// so, nothing of that kind is awaited any more.
func (t *tracker) take(k reply, tag int) bool {
	if tag == 0 || t.waiting[k] != tag {
		return false
	}
	t.waiting[k] = 0
	return true
}

// drop stops awaiting replies of kind k: what is on its way is about a
// simulation no longer on screen.
func (t *tracker) drop(k reply) { t.waiting[k] = 0 }
