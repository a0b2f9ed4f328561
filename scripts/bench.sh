#!/usr/bin/env bash
# Measure askuser against the floor for a Go command, in one run.
#
#   scripts/bench.sh [REV...]
#
# Builds a hello-world Go program and askuser from the work tree (and from
# each git REV given, for a before/after comparison) the way releases are
# built (CGO_ENABLED=0, -trimpath, -ldflags "-s -w"), then times a full
# scripted run of each askuser (validate, one question answered from a
# pipe, print) against hello-world with scripts/benchrun, and reports the
# ratio, peak RSS and the stripped size. scripts/floor, a cobra command that
# watches signals and answers without validating or prompting, is measured
# too: it is the floor that askuser's design card sets. RUNS sets the timed runs (300).
# Targets: ratio <= 1.3, stripped binary <= 8 MB, peak RSS <= 15 MB.
#
# On a shared machine, BENCH_RT=1 runs the timing at real-time priority
# (chrt -f 50; needs root), so that other work does not land inside the
# timed runs. It applies to every program measured alike.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build() { # build DIR OUT
	(cd "$1" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$2" .)
}

mkdir "$tmp/hello"
cat >"$tmp/hello/main.go" <<'GO'
package main

import "fmt"

func main() { fmt.Println("hello, world") }
GO
printf 'module hello\n\ngo 1.22\n' >"$tmp/hello/go.mod"
build "$tmp/hello" "$tmp/hello-world"

mkdir "$tmp/floor"
build scripts/floor "$tmp/floor/floor"
bins=("$tmp/floor/floor")
for rev in "$@"; do
	mkdir "$tmp/src-$rev"
	git archive "$rev" | tar -x -C "$tmp/src-$rev"
	build "$tmp/src-$rev" "$tmp/askuser-$rev"
	bins+=("$tmp/askuser-$rev")
done
build . "$tmp/askuser"
bins+=("$tmp/askuser")

go build -o "$tmp/benchrun" ./scripts/benchrun
prio=()
if [ "${BENCH_RT:-}" = 1 ]; then
	prio=(chrt -f 50)
fi
"${prio[@]}" "$tmp/benchrun" -n "${RUNS:-300}" "$tmp/hello-world" "${bins[@]}"
