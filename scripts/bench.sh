#!/usr/bin/env bash
# Measure askuser as a person waiting on it feels it, in one run, against
# baselines measured in the same run (docs/performance.md says why these):
#
#   scripts/bench.sh [REV...]
#
# Builds askuser from the work tree, and from each git REV given for a
# before/after comparison, the way releases are built (CGO_ENABLED=0,
# -trimpath, -ldflags "-s -w"); builds the baselines the same way: a
# hello-world Go program, scripts/benchrun/webfloor (net/http doing the
# least), and gum from the Go module proxy (cached; left out with a
# message when it cannot be built). Then scripts/benchrun measures, with
# the runs of all programs interleaved:
#
#   start-up (--version, validate) and a scripted run (answered 2 from a
#     pipe), against hello-world and gum --version;
#   a whole run in a pseudo-terminal and the redraw after ↓, against gum
#     choose;
#   the web page, from posting the form to the answer on stdout, against
#     webfloor;
#   peak RSS at the 1 MiB input cap (questions, and metadata), and the
#     stripped binary's size.
#
# It prints a table with each figure, its ratios, its target and whether it
# is met. It takes about a minute and a half with one REV (half a minute
# more for each further one), plus about a minute to build gum the first
# time.
#
# Environment:
#   RUNS=N         start-up and scripted runs of each program (300); the
#                  other figures scale with it
#   GUM_VERSION    the gum release compared with (v0.17.0)
#   BENCH_CACHE    where gum is kept ($XDG_CACHE_HOME/askuser-bench, else
#                  ~/.cache/askuser-bench)
set -euo pipefail
cd "$(dirname "$0")/.."

gum_version=${GUM_VERSION:-v0.17.0}
cache=${BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/askuser-bench}
runs=${RUNS:-300}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build() { # build DIR OUT [PACKAGE]
	(cd "$1" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$2" "${3:-.}")
}
say() { printf 'bench: %s\n' "$*" >&2; }

say "building askuser and the baselines"
build . "$tmp/hello" ./scripts/benchrun/hello
build . "$tmp/webfloor" ./scripts/benchrun/webfloor
go build -o "$tmp/benchrun" ./scripts/benchrun

builds=()
for rev in "$@"; do
	label=$(git rev-parse --short "$rev^{commit}")
	mkdir "$tmp/src-$label"
	git archive "$rev" | tar -x -C "$tmp/src-$label"
	build "$tmp/src-$label" "$tmp/askuser-$label"
	builds+=("$label=$tmp/askuser-$label")
done
build . "$tmp/askuser"
builds+=("work tree=$tmp/askuser")

gum_args=()
gum="$cache/gum-$gum_version/gum"
if [ ! -x "$gum" ]; then
	say "building gum $gum_version from the Go module proxy into $cache (about a minute, once)"
	mkdir -p "$cache"
	staging=$(mktemp -d "$cache/.gum-XXXXXX")
	if (cd "$staging" && GOBIN="$staging/bin" GOFLAGS= CGO_ENABLED=0 \
		go install -trimpath -ldflags "-s -w" "github.com/charmbracelet/gum@$gum_version") >"$tmp/gum.log" 2>&1; then
		mkdir -p "$(dirname "$gum")"
		mv "$staging/bin/gum" "$gum"
	else
		say "could not build gum $gum_version, so the figures against gum are left out:"
		sed 's/^/bench:   /' "$tmp/gum.log" | tail -n 5 >&2
	fi
	rm -rf "$staging"
fi
if [ -x "$gum" ]; then
	gum_args=(-gum "$gum" -gum-label "gum $gum_version")
fi

# Not at real-time priority (chrt): a child that spins there, as a run of
# gum --version once did for ten minutes, starves every other program on a
# small machine, the harness and its timeouts included.
"$tmp/benchrun" \
	-runs "$runs" -terminal $((runs / 6)) -keys "$runs" -web "$runs" \
	-hello "$tmp/hello" -webfloor "$tmp/webfloor" "${gum_args[@]}" "${builds[@]}"
