#!/usr/bin/env bash
# Run each fuzz target of askuser for a while, one after another.
#
#   scripts/fuzz.sh [DURATION] [TARGET...]
#
# DURATION is a Go duration per target (default 1m; e.g. 10m). TARGET is
# Name or ./pkg:Name (default: all). FUZZ_PARALLEL sets the workers per
# target (default 1, so that two runs of this script share 2 cores);
# FUZZ_MINIMIZE bounds the time spent shrinking each new input (default
# 10s; go test's own default of 60s stalls the run on large inputs).
# New crashers are written by go test to PKG/testdata/fuzz/NAME/ and then
# run as ordinary tests by "go test ./...": keep them as regression seeds.
# (-timeout 0: go test's default 10m timeout would otherwise end a 10m run
# with "context deadline exceeded".)
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${1:-1m}
shift || true
parallel=${FUZZ_PARALLEL:-1}
minimize=${FUZZ_MINIMIZE:-10s}

all=(
	./schema:FuzzParse
	./schema:FuzzTranslate
	./internal/ask:FuzzReadStream
	./prompt/line:FuzzParseChoice
	./prompt/line:FuzzLineAsk
	./prompt:FuzzCheckOther
	./prompt:FuzzDisplay
)

targets=()
if [ $# -eq 0 ]; then
	targets=("${all[@]}")
else
	for want in "$@"; do
		found=
		for t in "${all[@]}"; do
			if [ "$t" = "$want" ] || [ "${t#*:}" = "$want" ]; then
				targets+=("$t")
				found=1
			fi
		done
		[ -n "$found" ] || { echo "fuzz.sh: no target $want (have: ${all[*]})" >&2; exit 2; }
	done
fi

status=0
for t in "${targets[@]}"; do
	pkg=${t%%:*} name=${t#*:}
	echo "== $pkg $name for $duration"
	if ! go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$duration" -fuzzminimizetime "$minimize" -parallel "$parallel" -timeout 0; then
		echo "== $pkg $name FAILED: see $pkg/testdata/fuzz/$name/" >&2
		status=1
	fi
done
exit $status
