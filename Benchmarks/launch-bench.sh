#!/usr/bin/env bash
# hmon's launch against SQLite's own, on the demo store, in the same run:
#   A  sqlite3 opening the demo store and running one query (the weights screen's latest weights);
#   B  hmon snapshot --screen weights --size 120x40 --demo (open the store, sign in as demo, draw one frame);
#   D  the same snapshot with --db DEMO-STORE --user demo (no bringing the demo's readings up to now);
#   C  hmon --version (the process alone: the runtime's and Foundation's start-up, argument parsing).
# Each round runs A, B, D and C once in turn, so a machine shared with other work slows them alike; prints
# the medians (wall clock), CPU time (perf stat's task-clock, when perf is installed: the steadier
# figure on a busy machine) and peak resident memory, and the ratios B/A and D/A against their ceiling of 3.
#
#   Benchmarks/launch-bench.sh [ROUNDS]   (default 30)
#
# Needs sqlite3 (Debian: apt-get install -y sqlite3) and GNU time (apt-get install -y time). Builds hmon
# in release mode as the README installs it; HMON_BENCH_BIN=DIR measures the hmon already built in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}

for tool in sqlite3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "launch-bench: needs $tool (apt-get install -y sqlite3 time)" >&2; exit 2; }
done
source Benchmarks/release-hmon.sh
hmon=$(release_hmon)

dir=$(mktemp -d "${TMPDIR:-/tmp}/hmon-launch-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export XDG_DATA_HOME="$dir/data" XDG_CONFIG_HOME="$dir/config" XDG_STATE_HOME="$dir/state" LANG=C.UTF-8
"$hmon" demo >/dev/null
db="$dir/data/hmon/demo.sqlite"
query="SELECT ts, weight FROM messages WHERE weight IS NOT NULL ORDER BY ts DESC LIMIT 40"

a=(sqlite3 "$db" "$query")
b=("$hmon" snapshot --demo --screen weights --size 120x40)
d=("$hmon" snapshot --db "$db" --user demo --screen weights --size 120x40)
c=("$hmon" --version)
# Into a file first: `grep -q` leaves at its first match, and the snapshot's write into the closed pipe
# would fail the check under pipefail.
"${b[@]}" >"$dir/frame" && grep -q "Weight" "$dir/frame" || { echo "launch-bench: the snapshot shows no weights screen:" >&2; cat "$dir/frame" >&2; exit 1; }

# Warm the page cache and the binaries once.
"${a[@]}" >/dev/null; "${b[@]}" >/dev/null; "${d[@]}" >/dev/null; "${c[@]}" >/dev/null
for _ in $(seq "$rounds"); do
    for which in a b d c; do
        declare -n cmd=$which
        s=$(date +%s%N); "${cmd[@]}" >/dev/null; e=$(date +%s%N)
        echo $(( (e - s) / 1000 )) >>"$dir/$which"
    done
done

median() { sort -n "$dir/$1" | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'; }
usage() {  # LABEL CMD...: CPU time (perf stat's task-clock, mean of 10 runs, when perf is there), peak RSS of one run
    local label=$1; shift
    /usr/bin/time -f '%M' -o "$dir/time" "$@" >/dev/null
    local cpu="?"
    if command -v perf >/dev/null; then
        cpu=$(perf stat -r 10 -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { printf "%.1f", $1 }')
    fi
    echo "$cpu" >"$dir/cpu-$label"
    awk -v c="$cpu" '{ printf "CPU %5s ms, peak RSS %5.1f MB", c, $1 * 1.024 / 1000 }' "$dir/time"
}
echo "== medians of $rounds rounds (wall clock; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
printf "%-58s %7s ms   %s\n" "A: sqlite3 open + one query" "$(median a)" "$(usage a "${a[@]}")"
printf "%-58s %7s ms   %s\n" "B: hmon snapshot --screen weights --size 120x40 --demo" "$(median b)" "$(usage b "${b[@]}")"
printf "%-58s %7s ms   %s\n" "D: the same with --db DEMO-STORE --user demo" "$(median d)" "$(usage d "${d[@]}")"
printf "%-58s %7s ms   %s\n" "C: hmon --version" "$(median c)" "$(usage c "${c[@]}")"
awk -v a="$(median a)" -v b="$(median b)" -v c="$(median c)" -v d="$(median d)" 'BEGIN {
    printf "\n%-40s %5.1f   (ceiling 3.0)  %s\n", "snapshot --demo / sqlite3", b / a, (b / a <= 3 ? "ok" : "ABOVE CEILING")
    printf "%-40s %5.1f   (ceiling 3.0)  %s\n", "snapshot --db / sqlite3", d / a, (d / a <= 3 ? "ok" : "ABOVE CEILING")
    printf "%-40s %5.1f   (for reference)\n", "--version / sqlite3", c / a }'
if command -v perf >/dev/null; then
    awk -v a="$(cat "$dir/cpu-a")" -v b="$(cat "$dir/cpu-b")" -v d="$(cat "$dir/cpu-d")" 'BEGIN {
        printf "%-40s %5.1f   (by CPU time, for reference on a busy machine)\n", "snapshot --demo / sqlite3", b / a
        printf "%-40s %5.1f   (by CPU time)\n", "snapshot --db / sqlite3", d / a }'
fi
