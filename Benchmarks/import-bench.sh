#!/usr/bin/env bash
# Benchmark `hmon import` on a generated Apple Health export.xml (default 1 GB): MB/s and peak RSS.
# Targets: at least 150 MB/s, peak resident memory under 100 MB, whatever the file size.
#
# Usage: Benchmarks/import-bench.sh [SIZE]      e.g. 1G (default), 200M
# Needs python3 and GNU time (/usr/bin/time). Builds hmon in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."

size=${1:-1G}
work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-import-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The release build as the README installs it.
build=(swift build -c release --static-swift-stdlib --scratch-path .build-release)
for product in hmon hmon-bench; do
    if ! "${build[@]}" --product "$product" >"$work/build.log" 2>&1; then cat "$work/build.log"; exit 1; fi
done
hmon=$("${build[@]}" --show-bin-path)/hmon

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
    # Wall-clock MB/s is the figure; CPU seconds (user + system, both threads) tell a busy machine apart.
    awk -v l="$label" -v b="$bytes" -v s="$seconds" -v c="$cpu" -v r="$rss" \
        'BEGIN { printf "%-30s %7.1f MB in %6.2f s = %6.1f MB/s (%5.2f s CPU), peak RSS %5.1f MB\n", l, b / 1e6, s, b / 1e6 / s, c, r / 1024 }'
}

measure "dry run (read + roll back)" "$hmon" import "$work/export.xml" --user bench --dry-run --quiet
measure "import into an empty store" "$hmon" import "$work/export.xml" --user bench --quiet
measure "re-import (all already there)" "$hmon" import "$work/export.xml" --user bench --quiet
"$hmon" import "$work/export.xml" --user bench --dry-run
"$(dirname "$hmon")/hmon-bench" import-read "$work/export.xml" 2>/dev/null || true
