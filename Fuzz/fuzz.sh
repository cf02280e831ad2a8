#!/usr/bin/env bash
# Fuzzes the parts of hmon that read outside input (Fuzz/Targets), each for a bounded time.
#
#   [HMON_FUZZ_JOBS=N] Fuzz/fuzz.sh [SECONDS] [TARGET…]     default: 30 seconds each, one at a time, every target (xml csv theme keys server stored export withings hae feeds healthconnect openscale oura fit garminconnect)
#
# Builds hmon-fuzz with libFuzzer and AddressSanitizer on hmon's own modules (clang's runtime ships with
# the Swift toolchain) in its own build folder (HMON_FUZZ_BUILD, default .build-fuzz), then runs each target from its committed corpus (Fuzz/Corpus/TARGET, read
# only: what the fuzzer finds new goes to a temporary folder). A crash, a sanitizer report or a broken
# promise (see FuzzTarget) stops that target; the input is copied to Fuzz/Findings/ and the script
# exits 1. To keep a fixed finding as a regression test, move it into Fuzz/Corpus/TARGET/: `swift test`
# replays every corpus input (FuzzCorpusTests).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(xml csv theme keys server stored export withings hae feeds healthconnect openscale oura fit garminconnect)
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2;; esac

# HMON_FUZZ=1 has Package.swift instrument hmon's own modules (not its dependencies). By hand the build goes
# to a folder of its own, so the next `swift build` in .build has nothing to redo; CI passes
# HMON_FUZZ_BUILD=.build, sharing the dependencies with the test build (only hmon's modules are built twice).
export HMON_FUZZ=1
scratch=${HMON_FUZZ_BUILD:-.build-fuzz}
flags=(--product hmon-fuzz --scratch-path "$scratch")
echo "fuzz: building hmon-fuzz with libFuzzer and AddressSanitizer in $scratch"
build_log=$(mktemp)
if ! swift build "${flags[@]}" >"$build_log" 2>&1; then
    grep -E "error" -A3 "$build_log" | head -40
    echo "fuzz: the build of hmon-fuzz failed (log: $build_log)" >&2
    exit 1
fi
rm -f "$build_log"
binary="$(swift build "${flags[@]}" --show-bin-path)/hmon-fuzz"
[ -x "$binary" ] || { echo "fuzz: the build did not produce $binary" >&2; exit 1; }

findings=Fuzz/Findings
for target in "${targets[@]}"; do
    [ -d "Fuzz/Corpus/$target" ] || { echo "fuzz: no corpus for '$target' (Fuzz/Corpus/$target)" >&2; exit 2; }
done
# Each target's report is printed whole when it ends, so targets run side by side (HMON_FUZZ_JOBS, default 1;
# CI runs two, one a core) never interleave their lines; a finding leaves a file in $results.
results=$(mktemp -d)
fuzz_one() {
    local target=$1 work log leaks timeout
    work=$(mktemp -d)
    log=$(mktemp)
    # The server lives across inputs: its threads, pools and caches start during the first requests and
    # stay until the process ends, which LeakSanitizer (after an input, and at exit) reports as leaks.
    # Crashes, AddressSanitizer errors and broken promises still count; growth is -rss_limit_mb's to catch.
    leaks=1
    case "$target" in server|feeds) leaks=0 ;; esac
    # A change feed's input waits on the server between steps (up to seconds under the sanitizers).
    timeout=10
    [ "$target" = feeds ] && timeout=120
    {
        echo "fuzz: $target for ${seconds}s from $(ls "Fuzz/Corpus/$target" | wc -l) corpus inputs"
        # SWIFT_BACKTRACE off: libFuzzer reports the crash and saves the input; Swift's own backtracer,
        # reading other threads' stacks, trips AddressSanitizer and hides the first report.
        if HMON_FUZZ_TARGET=$target ASAN_OPTIONS="detect_leaks=$leaks${ASAN_OPTIONS:+:$ASAN_OPTIONS}" SWIFT_BACKTRACE=enable=no \
                "$binary" -max_total_time="$seconds" -timeout=$timeout -rss_limit_mb=3072 -detect_leaks=$leaks \
                -artifact_prefix="$work/" -print_final_stats=1 "$work" "Fuzz/Corpus/$target" >"$log" 2>&1; then
            grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$log" | sed "s/^/fuzz: $target /" || true
            grep -E "^#[0-9]+ +DONE" "$log" | tail -1 | sed "s/^/fuzz: $target /" || true
        else
            mkdir -p "$findings"
            # The broken promise (with what came before it) or the sanitizer's first lines, then the end.
            sed -n '/^hmon-fuzz: /,/ERROR: /p' "$log" | head -30
            grep -E "ERROR: |SUMMARY: " "$log" | head -5
            tail -25 "$log"
            for artifact in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
                [ -e "$artifact" ] || continue
                cp "$artifact" "$findings/$target-$(basename "$artifact")"
                echo "fuzz: $target: input saved as $findings/$target-$(basename "$artifact");" \
                     "replay it with: swift run hmon-fuzz $target $findings/$target-$(basename "$artifact")"
            done
            touch "$results/$target"
        fi
    } > "$results/$target.report" 2>&1
    cat "$results/$target.report"
    rm -rf "$work" "$log"
}
jobs_at_once=${HMON_FUZZ_JOBS:-1}
case "$jobs_at_once" in ''|*[!0-9]*|0) echo "fuzz.sh: HMON_FUZZ_JOBS must be a whole number from 1, got '$jobs_at_once'" >&2; exit 2;; esac
for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
    fuzz_one "$target" &
done
wait
failed=()
for target in "${targets[@]}"; do [ -e "$results/$target" ] && failed+=("$target"); done
rm -rf "$results"

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]}"
    exit 1
fi
echo "fuzz: every target ran ${seconds}s without a finding"
