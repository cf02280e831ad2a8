#!/usr/bin/env bash
# hmon's own export read back (`hmon import export.csv|json`) against the Apple Health import of the same
# readings, in the same run.
#
#   Benchmarks/export-roundtrip-bench.sh [SIZE] [RUNS]   SIZE of the generated export.xml (default 138M), RUNS (default 3)
#
# A generated Apple Health export.zip is imported into a store; that store is exported with `hmon export` as
# CSV and as JSON. Each round then alternates, each into a fresh store with one account:
#   A  hmon import of the export.zip (Apple Health's streamed, batched path: the floor);
#   B  hmon import of the CSV export;   C  hmon import of the JSON export.
# Prints medians (wall clock and CPU), readings a second, rows a second, peak resident memory, and each
# ratio against its floor: export import readings/s >= Apple Health import readings/s; peak RSS < 100 MB.
# Needs python3, sqlite3 and GNU time (Debian: apt-get install -y time sqlite3). Builds hmon in release mode
# as the README installs it; HMON_BENCH_BIN=DIR measures the hmon already built in DIR instead.
set -euo pipefail
cd "$(dirname "$0")/.."

size=${1:-138M}
runs=${2:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-export-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v /usr/bin/time >/dev/null || { echo "export-roundtrip-bench: needs GNU time: apt-get install -y time" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "export-roundtrip-bench: needs sqlite3: apt-get install -y sqlite3" >&2; exit 2; }

source Benchmarks/release-hmon.sh
hmon=$(release_hmon)

fresh_store() {  # a new store file with one account
    rm -f "$work"/hmon.sqlite*
    echo bench-password | HMON_DB="$work/hmon.sqlite" "$hmon" user add bench --password-stdin >/dev/null
}
readings() { sqlite3 "$work/hmon.sqlite" "SELECT count(*) FROM messages"; }

echo "export-roundtrip-bench: generating a $size export.xml in an export.zip, importing and exporting it ..."
python3 Benchmarks/gen-apple-health.py "$work/export.zip" "$size" --zip >/dev/null
fresh_store
HMON_DB="$work/hmon.sqlite" "$hmon" import "$work/export.zip" --user bench --quiet
count=$(readings)
HMON_DB="$work/hmon.sqlite" "$hmon" export --user bench --format csv --output "$work/export.csv"
HMON_DB="$work/hmon.sqlite" "$hmon" export --user bench --format json --output "$work/export.json"
csv_rows=$(($(wc -l <"$work/export.csv") - 1))
echo "export-roundtrip-bench: $count readings; export.csv $csv_rows rows, $(($(stat -c %s "$work/export.csv") / 1000000)) MB;" \
     "export.json $(($(stat -c %s "$work/export.json") / 1000000)) MB; $runs rounds"

run() {  # LABEL FILE: one timed import into a fresh store; appends "seconds rss_kib cpu_seconds" to $work/LABEL
    local label=$1 file=$2
    fresh_store
    HMON_DB="$work/hmon.sqlite" /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$hmon" import "$file" --user bench --quiet \
        >"$work/out.txt" 2>"$work/err.txt" || { echo "export-roundtrip-bench: $label failed:"; cat "$work/err.txt" "$work/out.txt"; exit 1; } >&2
    [ "$(readings)" = "$count" ] || { echo "export-roundtrip-bench: $label kept $(readings) readings, not $count" >&2; exit 1; }
    awk '{ print $1, $2, $3 + $4 }' "$work/time.txt" >>"$work/$label"
}
for round in $(seq "$runs"); do
    run apple "$work/export.zip"
    run csv "$work/export.csv"
    run json "$work/export.json"
    echo "  round $round done"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { awk '{ print $1 }' "$work/$1" | median; }
cpu() { awk '{ print $3 }' "$work/$1" | median; }
peak() { awk '{ print $2 }' "$work/$1" | sort -n | tail -1; }
report() {  # LABEL TITLE ROWS
    awk -v t="$2" -v n="$count" -v rows="$3" -v s="$(seconds "$1")" -v c="$(cpu "$1")" -v r="$(peak "$1")" \
        'BEGIN { printf "%-34s %6.2f s  CPU %6.2f s  %9.0f readings/s  %9.0f rows/s  peak RSS %5.1f MB\n", t, s, c, n / s, rows / s, r * 1.024 / 1000 }'
}
echo
echo "== medians of $runs, wall clock and CPU (user + system, all threads); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
report apple "A: import of the Apple Health zip" "$count"
report csv "B: import of hmon's CSV export" "$csv_rows"
report json "C: import of hmon's JSON export" "$csv_rows"
ratio() {  # NAME NUM DEN FLOOR: DEN/NUM seconds, so readings a second of NUM against DEN's
    awk -v n="$1" -v a="$(seconds "$2")" -v b="$(seconds "$3")" -v f="$4" \
        'BEGIN { r = b / a; printf "%-44s %5.2f   (floor %.2f)  %s\n", n, r, f, (r >= f ? "ok" : "BELOW FLOOR") }'
}
echo
ratio "CSV export import / Apple Health import" csv apple 1.0
ratio "JSON export import / Apple Health import" json apple 1.0
awk -v r="$(cat "$work"/csv "$work"/json | awk '{ print $2 }' | sort -n | tail -1)" \
    'BEGIN { m = r * 1.024 / 1000; printf "%-44s %5.1f MB (ceiling 100 MB)  %s\n", "peak RSS of any export import", m, (m < 100 ? "ok" : "ABOVE CEILING") }'
