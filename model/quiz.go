package model

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// QuizKind is what a quiz question asks about.
type QuizKind string

// The kinds of question the model can answer from a trace.
const (
	// QuizOwner: who consumes a partition once the rebalance has settled.
	QuizOwner QuizKind = "owner"
	// QuizRevoke: which partitions a member gives up in its revoke callback.
	QuizRevoke QuizKind = "revoke"
	// QuizRounds: how many rounds (generations; group epochs under
	// KIP-848) the rebalance takes.
	QuizRounds QuizKind = "rounds"
	// QuizRestart: whether a member's restart starts a rebalance.
	QuizRestart QuizKind = "restart"
	// QuizCount: how many partitions a member ends with (an uneven
	// assignment).
	QuizCount QuizKind = "count"
	// QuizTakeover: who takes over a crashed member's partition.
	QuizTakeover QuizKind = "takeover"
	// QuizKeyPartition: which partition a producer's key goes to.
	QuizKeyPartition QuizKind = "key-partition"
	// QuizBatch: when the sender takes a producer's batch.
	QuizBatch QuizKind = "batch"
	// QuizReplicas: which brokers hold a partition's replicas.
	QuizReplicas QuizKind = "replicas"
	// QuizRead: how many records a group reads.
	QuizRead QuizKind = "read"
)

// Question is one "predict, then reveal" question. The lab stops at Step
// (the trace up to it is on screen) and asks; RevealStep is the step whose
// narration settles the answer, and the lab moves there once answered.
// Every field is read from the trace: Choices[Answer] is what the
// simulation really did, the other choices what another assignor, the
// previous owner or a neighbouring count would say.
type Question struct {
	Step       int      `json:"step"`
	RevealStep int      `json:"reveal_step"`
	Kind       QuizKind `json:"kind"`
	Text       string   `json:"text"`
	Choices    []string `json:"choices"`
	Answer     int      `json:"answer"`
	// Explain is the answer in a sentence followed by the reveal step's
	// narration, and where the wrong choices came from.
	Explain string `json:"explain"`
	// Member is the member asked about (revoke, restart); Partition the
	// partition (owner).
	Member    string `json:"member,omitempty"`
	Partition string `json:"partition,omitempty"`
	// Hides is what the screen leaves out while the question is open.
	Hides QuizHides `json:"-"`
}

// maxChoices is how many choices a question offers (keys 1–4).
const maxChoices = 4

// Quiz asks, for every completed rebalance, one question about its outcome
// (who gets a partition, what a member revokes, how many rounds), and for
// every restart on the timeline whether it causes a rebalance. Questions
// come in step order and never overlap: each is asked after the previous
// one's reveal step, so answering one (which moves to its reveal) never
// skips another. Deterministic for a scenario: any shuffling uses its seed.
func (s *Sim) Quiz() []Question {
	q := newQuizzer(s)
	var out []Question
	for k := range q.rebs {
		if qu, ok := q.rebalanceQuestion(k); ok {
			out = append(out, qu)
		}
	}
	for _, ev := range s.sc.Timeline {
		if ev.Kind == "restart" && !scenario.IsShare(s.sc) {
			if qu, ok := q.restartQuestion(ev); ok {
				out = append(out, qu)
			}
		}
	}
	out = append(out, q.dataQuestions()...)
	out = append(out, q.shareQuestions()...) // share groups (quiz_share.go)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Step < out[j].Step })
	kept := out[:0]
	for _, qu := range out {
		if len(kept) == 0 || qu.Step > kept[len(kept)-1].RevealStep {
			qu.Hides.Through = qu.Step
			kept = append(kept, qu)
		}
	}
	return kept
}

// quizzer holds what every question of one simulation reads.
type quizzer struct {
	s    *Sim
	rebs []Rebalance
	alts *quizAlts // the scenario under other assignors, run on first use
}

func newQuizzer(s *Sim) *quizzer {
	var rebs []Rebalance
	if !scenario.IsShare(s.sc) { // a share group's questions are its own (quiz_share.go): no partition has one owner
		rebs = s.Rebalances()
	}
	return &quizzer{s: s, rebs: rebs, alts: &quizAlts{base: s}}
}

// rng is a question's shuffle, from the scenario seed and a salt (a step
// of that question), so one question's choices do not depend on another's.
func (q *quizzer) rng(salt int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(q.s.sc.Seed), uint64(salt)))
}

// shown is the last step before i that the lab stops at (routine
// heartbeats are skipped), or -1.
func (q *quizzer) shown(i int) int {
	for j := i - 1; j >= 0; j-- {
		if !q.s.steps[j].routine {
			return j
		}
	}
	return -1
}

// member is the named member's view after step i (nil if it is not in the
// group's list yet).
func (q *quizzer) member(i int, id string) *MemberView {
	for _, v := range q.s.members(i) {
		if v.ID == id {
			return v
		}
	}
	return nil
}

// ownedBy is what the member holds after step i, a partition it is
// revoking included.
func (q *quizzer) ownedBy(i int, id string) []kafka.TP {
	if v := q.member(i, id); v != nil {
		return heldBy(v)
	}
	return nil
}

// choiceSet builds a question's choices: the right one first, then the
// distinct wrong ones in order of plausibility, up to maxChoices.
type choiceSet struct {
	keys  []string // what makes two choices the same (a set's full list)
	texts []string
	why   []string // where a wrong choice came from ("" = a filler)
}

func (c *choiceSet) add(key, text, why string) {
	if len(c.texts) >= maxChoices || slices.Contains(c.keys, key) {
		return
	}
	c.keys = append(c.keys, key)
	c.texts = append(c.texts, text)
	c.why = append(c.why, why)
}

// shuffled returns the choices in r's order and where the right one went.
func (c *choiceSet) shuffled(r *rand.Rand) (choices []string, answer int) {
	order := r.Perm(len(c.texts))
	choices = make([]string, len(c.texts))
	for to, from := range order {
		choices[to] = c.texts[from]
		if from == 0 {
			answer = to
		}
	}
	return choices, answer
}

// origins says where the wrong choices came from, in brackets ("" when
// they are fillers).
func (c *choiceSet) origins() string {
	var parts []string
	for _, w := range c.why[min(1, len(c.why)):] {
		if w != "" {
			parts = append(parts, w)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ".)"
}
