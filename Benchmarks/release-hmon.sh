# Sourced by the benchmarks that run hmon: `hmon=$(release_hmon)` is the hmon to measure, built in release
# mode as the README installs it (static Swift runtime, in .build-release), or the one already built in
# $HMON_BENCH_BIN (another commit's, for an A/B). A failed build prints its log and fails the caller.
release_hmon() {
    if [ -n "${HMON_BENCH_BIN:-}" ]; then
        echo "$HMON_BENCH_BIN/hmon"
        return
    fi
    local build=(swift build -c release --static-swift-stdlib --scratch-path .build-release) log
    log=$(mktemp)
    if ! "${build[@]}" --product hmon >"$log" 2>&1; then cat "$log" >&2; rm -f "$log"; return 1; fi
    rm -f "$log"
    echo "$("${build[@]}" --show-bin-path)/hmon"
}
