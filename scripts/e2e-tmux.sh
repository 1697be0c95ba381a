#!/usr/bin/env bash
# End-to-end check of the lab in a real terminal: builds ./kviz, runs it in
# a detached tmux session, presses keys, reads the screen, and exits
# non-zero (printing the screen) at the first thing that is not there.
#
#   scripts/e2e-tmux.sh            # from anywhere inside the repository
#   KEEP=1 scripts/e2e-tmux.sh     # leave the tmux session open afterwards
#
# Needs go and tmux. Takes about 10 seconds.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
session="kviz-e2e-$$"
work="$(mktemp -d)"
cleanup() {
	if [[ -z "${KEEP:-}" ]]; then
		tmux kill-session -t "$session" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

command -v tmux >/dev/null || { echo "e2e: tmux is not installed" >&2; exit 2; }
(cd "$root" && go build -o "$work/kviz" .)

screen() { tmux capture-pane -p -t "$session"; }

fail() {
	echo "e2e: FAIL: $*" >&2
	echo "----- screen -----" >&2
	screen >&2 || true
	echo "------------------" >&2
	exit 1
}

# wait_for TEXT [SECONDS]: poll the screen until TEXT shows up.
wait_for() {
	local text="$1" deadline=$((SECONDS + ${2:-5}))
	while ((SECONDS < deadline)); do
		if screen | grep -qF -- "$text"; then
			return 0
		fi
		sleep 0.1
	done
	fail "expected \"$text\" on screen"
}

# wait_gone TEXT [SECONDS]: poll until TEXT is no longer on screen.
wait_gone() {
	local text="$1" deadline=$((SECONDS + ${2:-5}))
	while ((SECONDS < deadline)); do
		if ! screen | grep -qF -- "$text"; then
			return 0
		fi
		sleep 0.1
	done
	fail "expected \"$text\" to be gone"
}

keys() { tmux send-keys -t "$session" "$@"; }

# A plain shell first, so that we can see what kviz leaves behind on quit.
tmux new-session -d -s "$session" -x 120 -y 40 "env PS1='e2e$ ' TERM=xterm-256color bash --norc --noprofile"
wait_for 'e2e$'
keys "cd '$work' && echo BEFORE-KVIZ && ./kviz; echo EXIT=\$?" Enter

echo "e2e: the lab opens on the default scenario"
wait_for "group workshop"
wait_for "Assignment"
wait_for "? full help"

echo "e2e: stepping and rebalance jumps"
keys n n n
wait_for "step "
keys ']' ']'
wait_for "PreparingRebalance"
wait_for "c4"

echo "e2e: what-if preview"
keys w
wait_for "What if"
wait_for "[x]"
keys Escape
wait_gone "What if"

echo "e2e: compare mode"
keys c
wait_for "Compare strategies"
wait_for "cooperative-sticky"
keys c
wait_gone "Compare strategies"

echo "e2e: full help"
keys '?'
wait_for "Reading the grid"
keys Escape
wait_gone "Reading the grid"

echo "e2e: an event inserted at the cursor"
keys x
wait_for "crashes at"

echo "e2e: resize below the minimum and back"
tmux resize-window -t "$session" -x 50 -y 15
wait_for "make the terminal larger"
tmux resize-window -t "$session" -x 120 -y 40
wait_for "Assignment"

echo "e2e: the demo picker opens a demo in place"
keys o
wait_for "Open a demo"
keys f a i l
wait_for "Example 11"
wait_gone "Example 9"
keys Enter
wait_for "opened demo:example-11-failover"
wait_for "step 0/"

echo "e2e: a asks for the new member's id and topics"
keys G a
wait_for "add a member (1/2)"
wait_for "id: d"
keys Enter
wait_for "topics: t0"
keys Enter
wait_for "d joins (subscribed to t0)"

echo "e2e: esc cancels a prompt"
keys t
wait_for "add partitions (1/2)"
sleep 0.3 # a lone ESC, not the start of an alt+key
keys Escape
wait_for "add partitions: cancelled"

echo "e2e: q restores the terminal"
keys q
wait_for "EXIT=0"
wait_for "BEFORE-KVIZ"
screen | grep -qF "Assignment" && fail "the lab's screen is still there after q"

echo "e2e: a bad scenario fails before any screen, with its line"
printf 'name: bad\ntopics: {orders: 6}\ntimeline:\n  - {at_ms: 10, leav: c1}\n' >"$work/bad.yaml"
keys "clear; ./kviz play bad.yaml; echo EXIT=\$?" Enter
wait_for "EXIT=2"
screen | grep -qE "kviz: bad\.yaml:[0-9]+: " || fail "no 'kviz: bad.yaml:LINE:' error"

echo "e2e: PASS"
