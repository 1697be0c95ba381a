#!/usr/bin/env bash
# Start-up of kviz, whole process, per command: builds kviz, a hello-world
# Go binary and scripts/franzpeer (franz-go's balancers alone, on the same
# group: the peer `kviz assign` is raced against) the same way (the same go
# build flags, the same environment),
# and two floors: hello linking net (a plain go build with cgo links such a
# binary dynamically, as it does kviz and the peer), and a binary that
# blank-imports every package outside kviz that kviz's code imports, so it
# runs their inits and no kviz code (what any one binary with these
# libraries pays before its main);
# then runs, round after round, hello, the floors, `kviz --version`, `kviz assign` on a
# three-member group, `kviz route`, `kviz coordinator` and `kviz` to its
# first frame (in a pseudo-terminal; quit with q), and prints each one's
# median wall and CPU time, minor page faults and ratio to hello, and each
# kviz assign's ratio to franz-go's peer in the same rounds; then the
# GODEBUG=inittrace=1 sums (init clock, bytes, allocations) of
# `kviz --version` and hello, with the packages whose init costs most.
#
#   scripts/startup.sh                     # as the README builds it: go build
#   N=300 scripts/startup.sh               # more rounds (default 100)
#   scripts/startup.sh -trimpath -ldflags='-s -w'
#   CGO_ENABLED=0 scripts/startup.sh       # the environment applies to both
#
# Needs only go. About a minute at the default; quote the ratios, which hold
# when a shared machine's speed drifts, rather than the milliseconds.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/hello"
cat >"$work/hello/main.go" <<'EOF'
package main

import "fmt"

func main() { fmt.Println("hello") }
EOF
printf 'module hello\n\ngo 1.26\n' >"$work/hello/go.mod"
(cd "$work/hello" && go build "$@" -o "$work/hello/hello" .)
mkdir -p "$work/hellonet"
printf 'package main\n\nimport (\n\t"fmt"\n\t_ "net"\n)\n\nfunc main() { fmt.Println("hello") }\n' >"$work/hellonet/main.go"
printf 'module hellonet\n\ngo 1.26\n' >"$work/hellonet/go.mod"
(cd "$work/hellonet" && go build "$@" -o "$work/hellonet/hellonet" .)
# The libraries' floor is built against kviz's go.mod and go.sum, so it
# links the very versions kviz does.
mkdir -p "$work/libs"
sed 's|^module .*|module libsfloor|' "$root/go.mod" >"$work/libs/go.mod"
cp "$root/go.sum" "$work/libs/go.sum"
{
	printf 'package main\n\nimport (\n\t"fmt"\n'
	(cd "$root" && go list -deps -f '{{if .Module}}{{if eq .Module.Path "github.com/kvizlab/kviz"}}{{range .Imports}}{{println .}}{{end}}{{end}}{{end}}' .) |
		sort -u | grep -v -e '^github.com/kvizlab/kviz' -e '^fmt$' -e '^unsafe$' -e '^embed$' -e '^$' | sed 's|.*|\t_ "&"|'
	printf ')\n\nfunc main() { fmt.Println("hello") }\n'
} >"$work/libs/main.go"
(cd "$work/libs" && go build "$@" -o "$work/libs/libs" .)
(cd "$root" && go build "$@" -o "$work/kviz" .)
(cd "$root" && go build "$@" -o "$work/franzpeer" ./scripts/franzpeer)

cat >"$work/group.json" <<'EOF'
{"topics": {"orders": 6, "payments": 3},
 "members": [{"id": "c0", "owned": {"orders": [0, 1, 2]}, "generation": 4},
             {"id": "c1", "owned": {"orders": [3, 4, 5], "payments": [0, 1, 2]}, "generation": 4},
             {"id": "c2"}]}
EOF

echo "build: go build${*:+ $*} (CGO_ENABLED=$(go env CGO_ENABLED)); kviz $(du -k "$work/kviz" | cut -f1) KiB, hello $(du -k "$work/hello/hello" | cut -f1) KiB"
cd "$root" && go run ./scripts/startup -kviz "$work/kviz" -hello "$work/hello/hello" -peer "$work/franzpeer" \
	-floor "floor: hello + net=$work/hellonet/hellonet" -floor "floor: kviz's libraries=$work/libs/libs" -in "$work/group.json" -n "${N:-100}"
