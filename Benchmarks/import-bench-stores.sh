#!/usr/bin/env bash
# Benchmark `hmon import` on a generated Apple Health export.xml (default 1 GB): MB/s and peak RSS.
# Targets: at least 150 MB/s, peak resident memory under 100 MB, whatever the file size.
#
# Then the same file into PostgreSQL (a throwaway cluster in a temporary folder, a Unix socket there; as
# root it runs as the `postgres` account): the target there is at least half the SQLite speed.
#
# Usage: Benchmarks/import-bench-stores.sh [SIZE] [--debug] [--no-postgres]   e.g. 1G (default), 200M
# Needs python3 and GNU time (/usr/bin/time). Builds hmon in release mode (--debug: the debug build in .build,
# a quick check of the script whose figures are not the release build's; HMON_BENCH_BIN=DIR: the hmon in DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

size=1G
build=(swift build -c release --static-swift-stdlib --scratch-path .build-release)
postgres=yes
for arg in "$@"; do
    case "$arg" in
        --debug) build=(swift build) ;;
        --no-postgres) postgres="" ;;
        *) size=$arg ;;
    esac
done
work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-import-bench.XXXXXX")
source Benchmarks/throwaway-postgres.sh
cleanup() {
    stop_throwaway_postgres
    rm -rf "$work"
}
trap cleanup EXIT

# The release build as the README installs it; HMON_BENCH_BIN=DIR measures the hmon already built in DIR.
if [ -n "${HMON_BENCH_BIN:-}" ]; then
    hmon=$HMON_BENCH_BIN/hmon
else
    for product in hmon hmon-bench; do
        if ! "${build[@]}" --product "$product" >"$work/build.log" 2>&1; then cat "$work/build.log"; exit 1; fi
    done
    hmon=$("${build[@]}" --show-bin-path)/hmon
fi

echo "generating a $size export.xml ..."
python3 Benchmarks/gen-apple-health.py "$work/export.xml" "$size"
bytes=$(stat -c %s "$work/export.xml")

# A store with one account, made through hmon itself.
export HMON_DB="$work/hmon.sqlite"
echo bench-password | "$hmon" user add bench --password-stdin >/dev/null

measure() {  # label, then the command
    local label=$1; shift
    /usr/bin/time -v "$@" 2>"$work/time.txt" >"$work/out.txt"
    local seconds cpu rss
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time.txt")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$work/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time.txt")
    last_seconds=$seconds
    # Wall-clock MB/s is the figure; CPU seconds (user + system, both threads) tell a busy machine apart.
    awk -v l="$label" -v b="$bytes" -v s="$seconds" -v c="$cpu" -v r="$rss" \
        'BEGIN { printf "%-30s %7.1f MB in %6.2f s = %6.1f MB/s (%5.2f s CPU), peak RSS %5.1f MB\n", l, b / 1e6, s, b / 1e6 / s, c, r / 1024 }'
}

measure "dry run (read + roll back)" "$hmon" import "$work/export.xml" --user bench --dry-run --quiet
measure "import into an empty store" "$hmon" import "$work/export.xml" --user bench --quiet
sqlite_import=$last_seconds
measure "re-import (all already there)" "$hmon" import "$work/export.xml" --user bench --quiet
sqlite_reimport=$last_seconds
"$hmon" import "$work/export.xml" --user bench --dry-run
[ ! -x "$(dirname "$hmon")/hmon-bench" ] || "$(dirname "$hmon")/hmon-bench" import-read "$work/export.xml" 2>/dev/null || true

[ -n "$postgres" ] || exit 0
# A larger WAL so a long import does not checkpoint every few seconds.
start_throwaway_postgres import -c shared_buffers=256MB -c max_wal_size=4GB
export HMON_DB=$database
echo bench-password | "$hmon" user add bench --password-stdin >/dev/null
echo "PostgreSQL:"
measure "import into an empty database" "$hmon" import "$work/export.xml" --user bench --quiet
postgres_import=$last_seconds
measure "re-import (all already there)" "$hmon" import "$work/export.xml" --user bench --quiet
postgres_reimport=$last_seconds
# PostgreSQL's speed as a share of SQLite's on the same file in the same run (aim: at least 0.5).
awk -v s="$sqlite_import" -v p="$postgres_import" -v sr="$sqlite_reimport" -v pr="$postgres_reimport" 'BEGIN {
    printf "PostgreSQL / SQLite speed: import %.2f (%s), re-import %.2f  (floor 0.50)\n", s / p, (s / p >= 0.5 ? "ok" : "NOT MET"), sr / pr }'
