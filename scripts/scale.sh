#!/usr/bin/env bash
# Issue 21's Kafka-scale targets, measured whole-process: generates each
# scenario (scripts/scalegen) and the same scenario at a tenth of the size,
# runs the twins on both under /usr/bin/time, and prints wall time, peak
# resident memory (and output size) with the ratio full / tenth. Cost that
# grows no faster than the state shows as ratios near 10.
#
#   scripts/scale.sh                    # every case, with a freshly built kviz
#   scripts/scale.sh given-uniform      # the cases named (see CASES below)
#   KVIZ=/tmp/kviz scripts/scale.sh     # an existing binary
#   FULL_JSONL=1 scripts/scale.sh ...   # also the full-state JSONL (very large and slow at full size)
#   KEEP=DIR scripts/scale.sh ...       # keep the generated scenarios in DIR
#
# Needs go and GNU time (/usr/bin/time). Nothing it generates is kept
# unless KEEP says where.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
[[ -x /usr/bin/time ]] || { echo "scale: needs GNU time at /usr/bin/time" >&2; exit 2; }

if [[ -z "${KVIZ:-}" ]]; then
	KVIZ="$work/kviz"
	(cd "$root" && go build -o "$KVIZ" .)
fi
gen="$work/scalegen"
(cd "$root" && go build -o "$gen" ./scripts/scalegen)

# name | scalegen flags
CASES=(
	"given-uniform|-members 10000 -partitions 500000 -topics 1000 -strategy uniform -given -crash"
	"given-range|-members 10000 -partitions 500000 -topics 1000 -strategy range-server -given -crash"
	"given-coop|-members 10000 -partitions 500000 -topics 1000 -strategy cooperative-sticky -given -crash"
	"given-5k-uniform|-members 5000 -partitions 250000 -topics 1000 -strategy uniform -given -crash"
	"join-uniform-4.1|-members 2000 -partitions 100000 -topics 1 -strategy uniform"
	"join-uniform-4.3|-members 2000 -partitions 100000 -topics 1 -strategy uniform -kafka-version 4.3"
	"join-7000x20000|-members 7000 -partitions 20000 -topics 1 -strategy uniform"
	"join-coop-1000|-members 1000 -partitions 10000 -topics 1 -strategy cooperative-sticky"
)

want=("$@")
selected() {
	[[ ${#want[@]} -eq 0 ]] && return 0
	local w
	for w in "${want[@]}"; do [[ "$w" == "$1" ]] && return 0; done
	return 1
}

# measure CMD...: runs CMD with its output counted; sets secs (wall),
# cpu (user + system: steadier than wall time on a shared machine), rss_mb
# (peak resident) and out_bytes.
measure() {
	local tf="$work/time.$$"
	/usr/bin/time -f "%x %e %U %S %M" -o "$tf" "$@" 2>"$work/err.$$" | wc -c >"$work/bytes.$$" || true
	local code
	read -r code secs user sys rss_kb < <(tail -1 "$tf")
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	rss_mb=$((rss_kb / 1024))
	if [[ "$code" != 0 ]]; then
		secs="exit$code"
		echo "scale: $* failed: $(head -c 300 "$work/err.$$")" >&2
	fi
	out_bytes=$(<"$work/bytes.$$")
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

printf '%-18s %-15s %7s %7s %7s %8s | %7s %7s %7s %8s | %6s %6s\n' case command wall_s cpu_s rss_MB out_MB "wall_s" "cpu_s" "rss_MB" "out_MB" "x cpu" "x rss"
printf '%-34s %-32s | %-32s |\n' "" "full size" "1/10 size"
for c in "${CASES[@]}"; do
	name="${c%%|*}" flags="${c#*|}"
	selected "$name" || continue
	# shellcheck disable=SC2086
	"$gen" $flags >"$work/$name.yaml"
	# shellcheck disable=SC2086
	"$gen" $flags -tenth >"$work/$name.tenth.yaml"
	cmds=("simulate text|simulate {} --format text" "jsonl --changes|simulate {} --format jsonl --changes")
	if [[ "$flags" == *-given* ]]; then
		cmds+=("whatif|whatif {} --at-ms 5000 --leave {2}")
	fi
	if [[ -n "${FULL_JSONL:-}" ]]; then
		cmds+=("jsonl full|simulate {} --format jsonl")
	fi
	for cc in "${cmds[@]}"; do
		label="${cc%%|*}" tmpl="${cc#*|}"
		for size in full tenth; do
			f="$work/$name.yaml"
			[[ $size == tenth ]] && f="$work/$name.tenth.yaml"
			second="$(grep -o -m2 'id: c[0-9]*' "$f" | tail -1 | cut -d' ' -f2)"
			args="${tmpl//\{\}/$f}"
			args="${args//\{2\}/$second}"
			# shellcheck disable=SC2086
			measure "$KVIZ" $args
			if [[ $size == full ]]; then
				fs=$secs fc=$cpu fr=$rss_mb fb=$out_bytes
			else
				ts=$secs tc=$cpu tr=$rss_mb tb=$out_bytes
			fi
		done
		printf '%-18s %-15s %7s %7s %7s %8s | %7s %7s %7s %8s | %6s %6s\n' "$name" "$label" "$fs" "$fc" "$fr" "$(mb "$fb")" \
			"$ts" "$tc" "$tr" "$(mb "$tb")" "$(ratio "$fc" "$tc")" "$(ratio "$fr" "$tr")"
	done
done
