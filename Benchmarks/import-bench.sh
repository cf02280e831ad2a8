#!/usr/bin/env bash
# `hmon import` of a generated Apple Health export.zip against inflating the same zip alone, in the same run.
#
#   Benchmarks/import-bench.sh [SIZE] [RUNS]     SIZE of export.xml (default 138M), RUNS per measurement (default 3)
#
# Each round alternates the two, so a machine shared with other work slows both alike:
#   A  the zip's export.xml inflated alone by Python's zlib (zipfile, 1 MB reads, nothing kept);
#   B  hmon import of the zip into an empty store (a fresh account in a fresh file each round).
# Then a dry run and a re-import (everything already there) of the same zip. Prints medians, MB/s of the
# XML inflated, peak resident memory, and each ratio against its floor:
#   import >= 0.5 x inflate;  dry run and re-import >= import;  peak RSS < 100 MB.
# Needs python3 and GNU time (/usr/bin/time; Debian: apt-get install -y time). Builds hmon in release mode
# as the README installs it. HMON_BENCH_BIN=DIR measures the hmon already built in DIR instead.
set -euo pipefail
cd "$(dirname "$0")/.."

size=${1:-138M}
runs=${2:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-import-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v /usr/bin/time >/dev/null || { echo "import-bench: needs GNU time: apt-get install -y time" >&2; exit 2; }

source Benchmarks/release-hmon.sh
hmon=$(release_hmon)

echo "import-bench: generating a $size export.xml in an export.zip ..."
python3 Benchmarks/gen-apple-health.py "$work/export.zip" "$size" --zip >/dev/null
bytes=$(python3 -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).getinfo("apple_health_export/export.xml").file_size)' "$work/export.zip")
echo "import-bench: export.xml $((bytes / 1000000)) MB, zip $(($(stat -c %s "$work/export.zip") / 1000000)) MB; $runs rounds"

# run LABEL CMD...: one timed run; appends "seconds rss_kib cpu_seconds" to $work/LABEL.
run() {
    local label=$1; shift
    /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$@" >"$work/out.txt" 2>"$work/err.txt" \
        || { echo "import-bench: $label failed:"; cat "$work/err.txt" "$work/out.txt"; exit 1; } >&2
    awk '{ print $1, $2, $3 + $4 }' "$work/time.txt" >>"$work/$label"
}
inflate() {
    python3 -c '
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("apple_health_export/export.xml") as f:
    while f.read(1 << 20): pass' "$work/export.zip"
}
export -f inflate; export work
fresh_store() {  # a new store file with one account
    rm -f "$work"/hmon.sqlite*
    echo bench-password | HMON_DB="$work/hmon.sqlite" "$hmon" user add bench --password-stdin >/dev/null
}

for round in $(seq "$runs"); do
    run inflate bash -c inflate
    fresh_store
    HMON_DB="$work/hmon.sqlite" run import "$hmon" import "$work/export.zip" --user bench --quiet
    HMON_DB="$work/hmon.sqlite" run reimport "$hmon" import "$work/export.zip" --user bench --quiet
    fresh_store
    HMON_DB="$work/hmon.sqlite" run dryrun "$hmon" import "$work/export.zip" --user bench --dry-run --quiet
    echo "  round $round done"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { awk '{ print $1 }' "$work/$1" | median; }
cpu() { awk '{ print $3 }' "$work/$1" | median; }
peak() { awk '{ print $2 }' "$work/$1" | sort -n | tail -1; }
report() {  # LABEL TITLE
    awk -v t="$2" -v b="$bytes" -v s="$(seconds "$1")" -v c="$(cpu "$1")" -v r="$(peak "$1")" \
        'BEGIN { printf "%-38s %6.2f s %6.1f MB/s   CPU %6.2f s   peak RSS %5.1f MB\n", t, s, b / 1e6 / s, c, r * 1.024 / 1000 }'
}
echo
echo "== medians of $runs, wall clock (MB/s of export.xml as inflated) and CPU (user + system, all threads);"
echo "   $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
report inflate "A: inflate alone (python3 zlib)"
report import "B: hmon import into an empty store"
report dryrun "   hmon import --dry-run"
report reimport "   hmon re-import (all already there)"
ratio() {  # NAME NUM DEN FLOOR: DEN/NUM seconds as a speed ratio
    awk -v n="$1" -v a="$(seconds "$2")" -v b="$(seconds "$3")" -v f="$4" \
        'BEGIN { r = b / a; printf "%-40s %5.2f   (floor %.2f)  %s\n", n, r, f, (r >= f ? "ok" : "BELOW FLOOR") }'
}
echo
ratio "import speed / inflate speed" import inflate 0.5
awk -v a="$(cpu import)" -v b="$(cpu inflate)" \
    'BEGIN { printf "%-40s %5.2f   (for reference on a busy machine: CPU seconds, both threads)\n", "  the same by CPU time", b / a }'
ratio "dry-run speed / import speed" dryrun import 1.0
ratio "re-import speed / import speed" reimport import 1.0
awk -v r="$(cat "$work"/import "$work"/dryrun "$work"/reimport | awk '{ print $2 }' | sort -n | tail -1)" \
    'BEGIN { m = r * 1.024 / 1000; printf "%-40s %5.1f MB (ceiling 100 MB)  %s\n", "peak RSS of any hmon import", m, (m < 100 ? "ok" : "ABOVE CEILING") }'
