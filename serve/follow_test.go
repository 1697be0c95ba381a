package serve

import (
	"testing"
	"time"

	"charm.land/ssh"
	"github.com/stretchr/testify/assert"
)

func TestTheRoomFollowsTheTrainer(t *testing.T) {
	signer, pub := newKey(t)
	_, otherPub := newKey(t)
	r := startRoom(t, Config{TrainerKeys: []ssh.PublicKey{otherPub, pub}})

	trainer := connect(t, r.addr, 120, 40, signer)
	trainer.waitFor("step 0/")
	assert.NotContains(t, trainer.screen.String(), "following the trainer", "the trainer leads")

	trainer.waitFor("★ trainer · 0 of 0 following")
	attendee := connect(t, r.addr, 100, 30, nil)
	attendee.waitFor("following the trainer")
	trainer.waitFor("1 of 1 following")
	trainer.press("n", "n", "n")
	trainer.waitFor("step 3/")
	attendee.waitFor("step 3/")

	attendee.press("n") // keys that would leave the trainer's step say how instead
	attendee.waitFor("the trainer drives")
	assert.Equal(t, "3", step(t, attendee.screen.String()))

	// An attendee with a key of their own is an attendee too.
	keyed, _ := newKey(t)
	late := connect(t, r.addr, 100, 30, keyed)
	late.waitFor("following the trainer")
	late.waitFor("step 3/") // a latecomer joins at the trainer's step

	trainer.waitFor("2 of 2 following")
	attendee.press("f")
	attendee.waitFor("on your own")
	trainer.waitFor("1 of 2 following")
	trainer.press("n", "n")
	trainer.waitFor("step 5/")
	late.waitFor("step 5/")
	assert.Equal(t, "3", step(t, attendee.screen.String()), "on their own, the attendee stays")
	attendee.press("n")
	attendee.waitFor("step 4/") // and steps their own timeline

	before := stepOf.FindString(trainer.screen.String())
	trainer.press("a", "\r", "\r") // the trainer inserts an event: followers get the same timeline
	trainer.waitFor("— step on to see what happens")
	after := stepOf.FindString(trainer.waitFor("step 5/"))
	assert.NotEqual(t, before, after, "the join makes a longer timeline")
	late.waitFor(after)

	attendee.press("f")
	attendee.waitFor("following the trainer")
	attendee.waitFor(after)
	trainer.waitFor("2 of 2 following")

	// The trainer's connection drops; back, the trainer goes on where the
	// room is, and the room keeps following.
	trainer.press("q")
	trainer.waitEnded()
	back := connect(t, r.addr, 120, 40, signer)
	back.waitFor(after)
	back.press("n")
	back.waitFor("step 6/")
	attendee.waitFor("step 6/")
	late.waitFor("step 6/")
}

func TestWithoutTrainerKeysEverySessionIsIndependent(t *testing.T) {
	r := startRoom(t, Config{})
	signer, _ := newKey(t)
	a := connect(t, r.addr, 100, 30, signer)
	b := connect(t, r.addr, 100, 30, nil)
	a.waitFor("step 0/")
	b.waitFor("step 0/")
	a.press("n", "n")
	a.waitFor("step 2/")
	assert.NotContains(t, b.screen.String(), "following")
	assert.Equal(t, "0", step(t, b.screen.String()))
	b.press("f") // no room to follow: f does nothing
	assert.NotContains(t, b.screen.String(), "following")
}

// In quiz mode the trainer's question is on every following screen, and
// the trainer sees how the room answers.
func TestTheRoomAnswersTheTrainersQuestion(t *testing.T) {
	signer, pub := newKey(t)
	r := startRoom(t, Config{TrainerKeys: []ssh.PublicKey{pub}})
	trainer := connect(t, r.addr, 120, 40, signer)
	attendee := connect(t, r.addr, 120, 40, nil)
	trainer.waitFor("1 of 1 following")
	trainer.press("z")
	trainer.waitFor("quiz on:")
	// The quiz stops at its first question. On a loaded machine the key can
	// land while the questions are still being worked out in the
	// background (the lab then says so and stays); press it again.
	for try := 0; ; try++ {
		trainer.press("G")
		if trainer.showsWithin("Quiz · question 1", 3*time.Second) || try == 3 {
			break
		}
	}
	trainer.waitFor("Quiz · question 1")
	trainer.waitFor("no answer yet · 1 in the room")
	attendee.waitFor("Quiz · question 1")
	attendee.press("1")
	attendee.waitFor("answer sent")
	trainer.waitFor("1 of 1 answered")
	assert.Contains(t, trainer.screen.String(), "1) ×1")
}

// A full room never refuses the trainer: the cap is the attendees'.
func TestTheTrainerGetsIntoAFullRoom(t *testing.T) {
	signer, pub := newKey(t)
	r := startRoom(t, Config{MaxSessions: 1, TrainerKeys: []ssh.PublicKey{pub}})
	attendee := connect(t, r.addr, 100, 30, nil)
	attendee.waitFor("the trainer has not joined yet")
	refused := connect(t, r.addr, 100, 30, nil)
	refused.waitEnded()
	assert.Contains(t, refused.stderr.String(), "the room is full (1 attendee)")

	trainer := connect(t, r.addr, 120, 40, signer)
	trainer.waitFor("★ trainer · 1 of 1 following")
	trainer.press("n")
	attendee.waitFor("step 1/")
}

// While no trainer is connected the room says so, and waits at the
// trainer's last step; back, the trainer goes on from there and so does
// the room.
func TestTheRoomWaitsForAnAbsentTrainer(t *testing.T) {
	signer, pub := newKey(t)
	r := startRoom(t, Config{TrainerKeys: []ssh.PublicKey{pub}})
	trainer := connect(t, r.addr, 120, 40, signer)
	attendee := connect(t, r.addr, 120, 40, nil)
	trainer.waitFor("1 of 1 following")
	trainer.press("n", "n")
	attendee.waitFor("step 2/")

	trainer.press("q")
	trainer.waitEnded()
	attendee.waitFor("trainer away")
	assert.Equal(t, "2", step(t, attendee.screen.String()))

	back := connect(t, r.addr, 120, 40, signer)
	back.waitFor("step 2/")
	attendee.waitFor("the trainer is back")
	attendee.waitFor("◉ following the trainer")
	back.press("n")
	attendee.waitFor("step 3/")
}

// Two sessions with the trainer's key (a laptop and the projector) drive
// one lab: either's keys move both, and the room.
func TestTwoTrainerSessionsDriveTogether(t *testing.T) {
	signer, pub := newKey(t)
	r := startRoom(t, Config{TrainerKeys: []ssh.PublicKey{pub}})
	laptop := connect(t, r.addr, 120, 40, signer)
	laptop.waitFor("★ trainer")
	projector := connect(t, r.addr, 120, 40, signer)
	projector.waitFor("★ trainer")
	attendee := connect(t, r.addr, 120, 40, nil)
	attendee.waitFor("following the trainer")

	laptop.press("n", "n")
	projector.waitFor("step 2/")
	attendee.waitFor("step 2/")
	projector.press("n")
	laptop.waitFor("step 3/")
	attendee.waitFor("step 3/")
}

// The idle timeout never ends a trainer talking to a room, nor an attendee
// watching one; alone, the trainer's session idles out as any other.
func TestIdleTimeoutSparesATrainerWithARoom(t *testing.T) {
	signer, pub := newKey(t)
	r := startRoom(t, Config{IdleTimeout: 300 * time.Millisecond, TrainerKeys: []ssh.PublicKey{pub}})
	trainer := connect(t, r.addr, 120, 40, signer)
	attendee := connect(t, r.addr, 120, 40, nil)
	trainer.waitFor("1 of 1 following")
	time.Sleep(time.Second) // three idle timeouts without a key on either side
	assert.False(t, trainer.isEnded(), "the trainer with a room stays")
	assert.False(t, attendee.isEnded(), "an attendee watching the trainer stays")
	assert.NotContains(t, trainer.screen.String(), "no key pressed")

	attendee.press("q")
	attendee.waitEnded()
	trainer.waitFor("no key pressed for 300ms")
	trainer.waitEnded()
}
