#!/usr/bin/env bash
# A remote dashboard's time to a full frame against the local dashboard's, on the same store in one run:
# for each screen, R to redrawn frame and a switch to it from another screen, in process (hmon-bench
# dashboard), first on the SQLite file itself, then through `hmon serve` of that file on a loopback port.
# Prints both and the remote/local ratio of the medians. Aim: remote ≤ 2× local.
#
#   Benchmarks/remote-frame.sh [READINGS] [--iterations 90] [--port 18400]
#
# The store is the demo store plus READINGS (default 1,000,000) older readings, as dashboard-bench.sh
# makes it. The server runs with `--rate-limit off`: the runs are a measurement, not one person's pace.
# HMON_BENCH_BIN=DIR measures the hmon and hmon-bench already built in DIR. Needs curl.
set -euo pipefail
cd "$(dirname "$0")/.."
readings=1000000
iterations=90
port=18400
while [ $# -gt 0 ]; do
    case "$1" in
        --iterations) iterations=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        [0-9]*) readings=$1; shift ;;
        *) echo "remote-frame: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done

build=(swift build -c release --static-swift-stdlib --scratch-path .build-release)
if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    "${build[@]}" --product hmon >/dev/null
    "${build[@]}" --product hmon-bench >/dev/null
    bin=$("${build[@]}" --show-bin-path)
fi
dir=$(mktemp -d /tmp/hmon-remote-frame.XXXXXX)
server=
cleanup() { [ -n "$server" ] && { kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null; }; rm -rf "$dir"; }
trap cleanup EXIT
export HOME=$dir XDG_DATA_HOME=$dir/data XDG_CONFIG_HOME=$dir/config

"$bin/hmon-bench" dashboard --prepare "$dir" --readings "$readings"
db="$dir/data/hmon/demo.sqlite"

echo "== local: the dashboard on the SQLite file"
"$bin/hmon-bench" dashboard --db "$db" --iterations "$iterations" | tee "$dir/local.txt"

"$bin/hmon" serve --db "$db" --port "$port" --rate-limit off >"$dir/serve.log" 2>&1 & server=$!
for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
echo "== remote: the dashboard through hmon serve of the same file"
"$bin/hmon-bench" dashboard --server "http://127.0.0.1:$port" --iterations "$iterations" | tee "$dir/remote.txt"

echo "== remote / local, medians (aim ≤ 2×)"
python3 - "$dir/local.txt" "$dir/remote.txt" <<'PY'
import re, sys
def medians(path):
    out = {}
    for line in open(path):
        m = re.match(r"(.+?):\s+median ([0-9.]+) ms", line)
        if m: out[m.group(1).strip()] = float(m.group(2))
    return out
local, remote = medians(sys.argv[1]), medians(sys.argv[2])
worst = 0
for what, ms in local.items():
    if what in remote and ms > 0:
        ratio = remote[what] / ms
        worst = max(worst, ratio)
        print(f"{what:36} local {ms:8.3f} ms   remote {remote[what]:8.3f} ms   {ratio:5.2f}×")
print(f"worst ratio {worst:.2f}× ({'met' if worst <= 2 else 'not met'})")
PY
