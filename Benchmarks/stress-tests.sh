#!/usr/bin/env bash
# The whole `swift test`, several times in a row, while a second process keeps every core busy: the suite must
# get slower on a loaded machine, never fail. The load is a release build of this same tree into a scratch
# path of its own, cleaned and built again for as long as the tests run (`--load spin` instead keeps one
# busy loop a core: lighter on memory, no compiler needed). Each run's time, the load average during it,
# and every failing test by name are printed; the exit status is 1 when any run failed.
#
#   Benchmarks/stress-tests.sh [--runs 3] [--load build|spin|none] [--load-scratch-path DIR (default .build-stress-load)]
#                              [--filter REGEX] [-- more swift test arguments]
#
# `--load none` is the quiet-machine half of the same check. Each run's whole log is kept in
# .build-stress-logs/run-N.log. The tests are built first (`swift build --build-tests`), before the load starts.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
load=build
load_scratch=.build-stress-load
test_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --load) load=$2; shift 2 ;;
        --load-scratch-path) load_scratch=$2; shift 2 ;;
        --filter) test_args+=(--filter "$2"); shift 2 ;;
        --) shift; test_args+=("$@"); break ;;
        *) echo "stress-tests: unknown option $1" >&2; exit 2 ;;
    esac
done
case "$load" in build|spin|none) ;; *) echo "stress-tests: --load is build, spin or none" >&2; exit 2 ;; esac

logs=.build-stress-logs
mkdir -p "$logs"
cores=$(nproc)

echo "stress-tests: building the tests first"
swift build --build-tests >"$logs/build.log" 2>&1 || { tail -30 "$logs/build.log"; exit 1; }

# The load, in a process group of its own so that it stops with this script, whatever ends it.
load_pid=
stop_load() {
    if [ -n "$load_pid" ]; then
        kill -TERM -- "-$load_pid" 2>/dev/null || true
        wait "$load_pid" 2>/dev/null || true
        load_pid=
    fi
}
trap stop_load EXIT

start_load() {
    case "$load" in
        none) return ;;
        spin)
            set -m
            ( for _ in $(seq "$cores"); do ( while :; do :; done ) & done; wait ) &
            load_pid=$!
            set +m ;;
        build)
            # A scratch path of its own needs the dependencies' checkouts, and there may be no network: the
            # tests' own are copied in once.
            if [ ! -d "$load_scratch/checkouts" ] && [ -d .build/checkouts ]; then
                mkdir -p "$load_scratch"
                cp -R .build/checkouts .build/repositories .build/workspace-state.json "$load_scratch"/ 2>/dev/null || true
            fi
            set -m
            ( while :; do
                  swift build -c release --scratch-path "$load_scratch" >"$logs/load.log" 2>&1 || sleep 1
                  rm -rf "$load_scratch/release" "$load_scratch"/*-linux-gnu 2>/dev/null || true
              done ) &
            load_pid=$!
            set +m ;;
    esac
    echo "stress-tests: load '$load' started (pid $load_pid) on $cores cores"
}

failed_runs=0
start_load
for run in $(seq "$runs"); do
    log="$logs/run-$run.log"
    echo "stress-tests: run $run of $runs: swift test ${test_args[*]:-} (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
    # The highest one-minute load average seen during the run, sampled every 10 s.
    ( peak=0; while :; do now=$(cut -d' ' -f1 /proc/loadavg)
          awk -v a="$now" -v b="$peak" 'BEGIN { exit !(a > b) }' && peak=$now
          echo "$peak" >"$logs/peak-load"; sleep 10; done ) &
    sampler=$!
    start=$(date +%s)
    status=0
    swift test "${test_args[@]}" >"$log" 2>&1 || status=$?
    seconds=$(( $(date +%s) - start ))
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    summary=$(grep -E "^(✔|✘|􁁛|􀢄) Test run with|Executed [0-9]+ tests" "$log" | tail -2 | tr '\n' ' ')
    echo "stress-tests: run $run: exit $status after ${seconds} s, peak load $(cat "$logs/peak-load" 2>/dev/null || echo ?): ${summary:-no summary}"
    # Swift Testing's failures name their test ("✘ Test name() recorded an issue …"); XCTest's say "failed".
    # A crash ends the run without a summary: its "Fatal error:" or signal line is kept too.
    failures=$(grep -E "^(✘|􀢄) Test .*(recorded an issue|failed after)|Test Case .* failed|Fatal error:|exited with (signal|unexpected)" "$log" \
        | sed -E 's/^[^A-Za-z]*//' | sort -u || true)
    if [ "$status" -ne 0 ] || [ -n "$failures" ]; then
        failed_runs=$((failed_runs + 1))
        echo "stress-tests: run $run failed:"
        if [ -n "$failures" ]; then echo "$failures" | sed 's/^/    /'; else tail -20 "$log" | sed 's/^/    /'; fi
    fi
done
stop_load
echo "stress-tests: $((runs - failed_runs)) of $runs runs passed under load '$load' (logs in $logs/)"
[ "$failed_runs" -eq 0 ]
