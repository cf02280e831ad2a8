#!/usr/bin/env bash
# Memory of `hmon serve` for the two largest things it is asked: a 32 MB Health Connect batch (a first sync's
# backfill, ~490,000 records, `gen-health-connect.py`) posted to a link, and `GET /v1.1/hmon/views/readings
# ?limit=100000` (the most a view gives) on the store that batch filled. Reads the server's own
# /proc/PID/status: its peak RSS while the batch is read and kept, its RSS once it has answered, and the
# rise of its peak over its RSS before for one view and for ten at once (clear_refs resets the peak in
# between). Aims, checked in the same run: batch peak < 300 MB, RSS after < 100 MB, one view's rise < 64 MB;
# exits 1 when one is missed.
#
#   Benchmarks/push-memory.sh [--size BYTES (default 33,000,000)] [--port 18093]
#
# Public tools only: curl and python3, and hmon itself, built in release (`release-hmon.sh`);
# HMON_BENCH_BIN=DIR measures the hmon already built in DIR (another commit's, for an A/B).
set -euo pipefail
cd "$(dirname "$0")/.."

size=33000000
port=18093
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) echo "push-memory: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done

source Benchmarks/release-hmon.sh
hmon=$(release_hmon)
work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-push-memory.XXXXXX")
server=""
trap '[ -n "$server" ] && { kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; }; rm -rf "$work"' EXIT

store="$work/store.sqlite"
base="http://127.0.0.1:$port"
echo benchmark | "$hmon" user add bench --db "$store" --password-stdin >/dev/null
link=$("$hmon" link add health-connect --db "$store" --user bench --base-url "$base" --allow-loopback \
       | grep -o 'http://[^ ]*/health-connect/[0-9a-f]*')
python3 Benchmarks/gen-health-connect.py "$size" >"$work/batch.json"

"$hmon" serve --db "$store" --host 127.0.0.1 --port "$port" --rate-limit off >/dev/null 2>"$work/server.log" &
server=$!
for _ in $(seq 1 100); do
    curl -s -o /dev/null "$base/authorize?client_id=hmon&response_type=token" && break
    sleep 0.1
done

# kB of the server's VmHWM (peak) or VmRSS.
status() { awk -v key="$1:" '$1 == key { print $2 }' "/proc/$server/status"; }
mb() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }
# Waits for the server to settle (the trim after a large body runs just after its answer).
settle() { sleep 2; }

start_rss=$(status VmRSS)
echo 5 >"/proc/$server/clear_refs"
answer=$(curl -s -w '\n%{http_code} %{time_total}' -H 'Content-Type: application/json' --data-binary @"$work/batch.json" "$link")
code=$(tail -1 <<<"$answer" | cut -d' ' -f1)
seconds=$(tail -1 <<<"$answer" | cut -d' ' -f2)
[ "$code" = 200 ] || { echo "push-memory: the batch was answered $code: $(head -c 400 <<<"$answer")" >&2; exit 1; }
# The answer's own total (each kind has an "added" of its own too).
added=$(head -1 <<<"$answer" | python3 -c 'import json, sys; print(json.load(sys.stdin)["added"])')
push_peak=$(status VmHWM)
settle
push_after=$(status VmRSS)

source Benchmarks/bench-sign-in.sh
sign_in "$port" >/dev/null
view="$base/v1.1/hmon/views/readings?limit=100000"
before_view=$(status VmRSS)
echo 5 >"/proc/$server/clear_refs"
view_answer=$(curl -s -o "$work/view.json" -w '%{http_code} %{time_total} %{size_download}' -H "$auth" "$view")
view_peak=$(status VmHWM)
read -r view_code view_seconds view_bytes <<<"$view_answer"
[ "$view_code" = 200 ] || { echo "push-memory: the view was answered $view_code" >&2; exit 1; }
view_readings=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["data"]["readings"]))' "$work/view.json")
settle
before_ten=$(status VmRSS)
echo 5 >"/proc/$server/clear_refs"
ten_start=$(date +%s.%N)
# The ten requests' own pids: a bare `wait` would wait for the server too, which runs until the end.
views=()
for _ in $(seq 1 10); do curl -s -o /dev/null -H "$auth" "$view" & views+=($!); done
wait "${views[@]}"
ten_seconds=$(awk -v a="$ten_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
ten_peak=$(status VmHWM)
settle
end_rss=$(status VmRSS)

view_rise=$((view_peak - before_view))
ten_rise=$((ten_peak - before_ten))
echo "push-memory: batch $(stat -c %s "$work/batch.json") bytes, ${added:-?} readings added in ${seconds} s"
echo "push-memory: server RSS at start $(mb "$start_rss") MB"
echo "push-memory: batch peak RSS $(mb "$push_peak") MB (aim < 300); RSS after $(mb "$push_after") MB (aim < 100)"
echo "push-memory: view of ${view_readings} readings (${view_bytes} bytes) in ${view_seconds} s: peak rises $(mb "$view_rise") MB (aim < 64)"
echo "push-memory: ten such views at once in ${ten_seconds} s: peak rises $(mb "$ten_rise") MB; RSS after $(mb "$end_rss") MB"

missed=0
[ "$push_peak" -lt $((300 * 1024)) ] || { echo "push-memory: batch peak aim missed" >&2; missed=1; }
[ "$push_after" -lt $((100 * 1024)) ] || { echo "push-memory: RSS after the batch aim missed" >&2; missed=1; }
[ "$view_rise" -lt $((64 * 1024)) ] || { echo "push-memory: view aim missed" >&2; missed=1; }
[ "$view_readings" = 100000 ] || { echo "push-memory: the view gave $view_readings readings, not 100000" >&2; missed=1; }
exit $missed
