#!/usr/bin/env bash
# End-to-end check of a workshop room with the system ssh client, as people
# would use it: builds ./kviz, runs `kviz serve` on a loopback port with a
# trainer key, connects a trainer and an attendee in detached tmux sessions,
# presses keys and reads their screens. Exits non-zero (printing the screen)
# at the first thing that is not there.
#
#   scripts/e2e-ssh.sh            # from anywhere inside the repository
#   KEEP=1 scripts/e2e-ssh.sh     # leave the tmux sessions open afterwards
#
# Needs go, tmux and ssh (apt-get install openssh-client). About 20 seconds.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tag="kviz-ssh-$$"
work="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
server=""
cleanup() {
	if [[ -n "$server" ]] && kill -0 "$server" 2>/dev/null; then
		kill "$server" 2>/dev/null || true
	fi
	if [[ -z "${KEEP:-}" ]]; then
		for s in trainer attendee third; do tmux kill-session -t "$tag-$s" 2>/dev/null || true; done
	fi
	rm -rf "$work"
}
trap cleanup EXIT

for tool in tmux ssh ssh-keygen; do
	command -v "$tool" >/dev/null || { echo "e2e-ssh: $tool is not installed (apt-get install tmux openssh-client)" >&2; exit 2; }
done
(cd "$root" && go build -o "$work/kviz" .)
ssh-keygen -q -t ed25519 -N "" -C trainer -f "$work/trainer"

screen() { tmux capture-pane -p -t "$tag-$1"; }

fail() {
	echo "e2e-ssh: FAIL: $*" >&2
	for s in trainer attendee third; do
		if tmux has-session -t "$tag-$s" 2>/dev/null; then
			echo "----- $s -----" >&2
			screen "$s" >&2 || true
		fi
	done
	echo "----- server log -----" >&2
	cat "$work/server.log" >&2 || true
	exit 1
}

# wait_for WHO TEXT [SECONDS]: poll WHO's screen until TEXT shows up.
wait_for() {
	local who="$1" text="$2" deadline=$((SECONDS + ${3:-8}))
	while ((SECONDS < deadline)); do
		if screen "$who" | grep -qF -- "$text"; then
			return 0
		fi
		sleep 0.1
	done
	fail "expected \"$text\" on $who's screen"
}

keys() { local who="$1"; shift; tmux send-keys -t "$tag-$who" "$@"; }

start_server() {
	# The log is appended to: wait for this start's own "listening on" line,
	# not the one a previous start left (that raced the restart step).
	local before
	before=$(grep -c "listening on" "$work/server.log" 2>/dev/null || true)
	"$work/kviz" serve --addr "127.0.0.1:$port" --host-key "$work/host_key" --trainer-key "$work/trainer.pub" \
		--max-sessions 2 2>>"$work/server.log" &
	server=$!
	local deadline=$((SECONDS + 10))
	until (($(grep -c "listening on" "$work/server.log" 2>/dev/null || true) > ${before:-0})); do
		((SECONDS < deadline)) || fail "the server did not start"
		sleep 0.1
	done
}

# ssh_cmd [OPTIONS...]: the ssh command line for this room; host keys are
# pinned in our own known_hosts, never the user's.
ssh_cmd() {
	echo "ssh -p $port -o UserKnownHostsFile=$work/known_hosts -o IdentitiesOnly=yes -o LogLevel=ERROR $* localhost"
}

# A session in a shell, so that we can see what ssh prints when it ends.
open_session() {
	local who="$1" w="$2" h="$3"; shift 3
	tmux new-session -d -s "$tag-$who" -x "$w" -y "$h" "env PS1='e2e$ ' TERM=xterm-256color bash --norc --noprofile"
	wait_for "$who" 'e2e$'
	keys "$who" "clear; $(ssh_cmd "$@"); echo SSH-EXIT=\$?" Enter
}

start_server

echo "e2e-ssh: the trainer connects with the trainer's key (first contact pins the host key)"
open_session trainer 120 40 -o StrictHostKeyChecking=accept-new -i "$work/trainer"
wait_for trainer "group workshop"
wait_for trainer "Numbers" # side by side at 120 columns
screen trainer | grep -qF "following the trainer" && fail "the trainer's own lab follows no one"

echo "e2e-ssh: an attendee connects without any key, at 80x24"
open_session attendee 80 24 -o StrictHostKeyChecking=yes -o PubkeyAuthentication=no
wait_for attendee "following the trainer"
wait_for attendee "Protocol · tab: numbers"

echo "e2e-ssh: the attendee follows the trainer's steps"
keys trainer n n n
wait_for trainer "step 3/"
wait_for attendee "step 3/"

echo "e2e-ssh: f: the attendee explores alone, the trainer goes on"
keys attendee f
wait_for attendee "on your own"
keys trainer n n
wait_for trainer "step 5/"
keys attendee n
wait_for attendee "step 4/"

echo "e2e-ssh: f again rejoins the trainer"
keys attendee f
wait_for attendee "following the trainer"
wait_for attendee "step 5/"

echo "e2e-ssh: the attendee's window grows"
tmux resize-window -t "$tag-attendee" -x 120 -y 40
wait_for attendee "─ Numbers"

echo "e2e-ssh: the room is full at --max-sessions 2"
open_session third 80 24 -o StrictHostKeyChecking=yes -o PubkeyAuthentication=no
wait_for third "the room is full (2 sessions)"
wait_for third "SSH-EXIT=1"

echo "e2e-ssh: no PTY, no lab"
out="$($(ssh_cmd -T -o StrictHostKeyChecking=yes -o PubkeyAuthentication=no) 2>&1 </dev/null || true)"
grep -qF "PTY" <<<"$out" || fail "a session without a PTY was not refused with a message: $out"

echo "e2e-ssh: q ends the attendee's session, not the room"
keys attendee q
wait_for attendee "SSH-EXIT=0"
keys trainer n
wait_for trainer "step 6/"

echo "e2e-ssh: SIGTERM closes the room: the trainer is told, the server exits 0"
kill -TERM "$server"
wait_for trainer "the room is closing"
start=$SECONDS
wait "$server" || fail "the server exited with $?"
server=""
((SECONDS - start <= 5)) || fail "the server took $((SECONDS - start)) s to stop"
wait_for trainer "SSH-EXIT="
grep -q "connect 127.0.0.1" "$work/server.log" || fail "no connect line in the log"
grep -q "disconnect" "$work/server.log" || fail "no disconnect line in the log"

echo "e2e-ssh: after a restart the host key is the same (StrictHostKeyChecking=yes passes)"
start_server
keys attendee "clear; $(ssh_cmd -o StrictHostKeyChecking=yes -o PubkeyAuthentication=no); echo SSH-EXIT=\$?" Enter
wait_for attendee "following the trainer"
keys attendee q
wait_for attendee "SSH-EXIT=0"

echo "e2e-ssh: PASS"
