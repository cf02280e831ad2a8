#!/usr/bin/env bash
# Writes through `hmon serve`: single readings posted (POST /v1.1/messages, one weigh-in each) from 16 and
# 128 connections with a token, against the same server answering 401 to the same post without one (its
# framework's ceiling here), with wrk on loopback. Each round measures the two in turn, so a machine shared
# with other work slows both alike. Meanwhile a dashboard reads (GET /v1.1/messages/last?count=20 every
# 50 ms, with curl): its latency is reported beside the posts. Prints medians, the ratio against its floor
# (posts/s >= 0.30 of the 401 path), the posts' p99 (ceiling 50 ms) and the readings stored (each 2xx one).
#
#   Benchmarks/serve-posts.sh [--readings N] [--duration 10s] [--rounds 3] [--threads 2] [--port 18082]
#                             [--db postgres://…] [--scratch-path DIR (default .build-release)]
#
# Public tools only: wrk and curl (installed with apt-get when missing), and hmon itself, built in release.
# The store starts as a copy of the one `hmon-bench store` builds (N readings, default 100,000), so each run
# posts into the same store. HMON_BENCH_BIN=DIR measures the hmon and hmon-bench already built in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

readings=100000
duration=10s
rounds=3
threads=2
port=18082
scratch=(--scratch-path .build-release)
while [ $# -gt 0 ]; do
    case "$1" in
        --readings) readings=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        *) echo "serve-posts: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v curl >/dev/null 2>&1 || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
    echo "serve-posts: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    echo "serve-posts: building hmon and hmon-bench (release)…"
    buildlog=$(mktemp)
    for product in hmon hmon-bench; do
        if ! swift build -c release --static-swift-stdlib "${scratch[@]}" --product "$product" >"$buildlog" 2>&1; then
            cat "$buildlog" >&2
            exit 1
        fi
    done
    rm -f "$buildlog"
    bin=$(swift build -c release --static-swift-stdlib "${scratch[@]}" --show-bin-path)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-serve-posts.XXXXXX")
server=""
trap '[ -n "$server" ] && { kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; }; rm -rf "$work"' EXIT
seed="${TMPDIR:-/tmp}/hmon-bench/serve-${readings}.sqlite"
mkdir -p "$(dirname "$seed")"
"$bin/hmon-bench" store --db "$seed" --readings "$readings" --iterations 1 | grep -E "building|built" || true
sqlite3 "$seed" ".backup '$work/store.sqlite'" 2>/dev/null || cp "$seed" "$work/store.sqlite"
store="$work/store.sqlite"

"$bin/hmon" serve --db "$store" --host 127.0.0.1 --port "$port" --rate-limit off >/dev/null 2>"$work/server.log" &
server=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -s -o /dev/null "$base/authorize?client_id=hmon&response_type=token" && break
    sleep 0.1
done
source Benchmarks/bench-sign-in.sh
sign_in "$port"
sdid=${path##*sdids=}
before=$(sqlite3 "$store" "SELECT count(*) FROM messages")

cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
    n = n + 1
    return wrk.format(nil, "/v1.1/messages", nil, string.format('{"sdid":"$sdid","type":"message","data":{"weight":%.1f}}', 60 + (n % 300) / 10))
end
LUA

# The dashboard: one read every 50 ms while wrk posts; appends each latency in ms to $work/reads-LABEL.
reader() {
    while [ ! -e "$work/stop-reader" ]; do
        curl -s -o /dev/null -w '%{time_total}\n' -H "$auth" "$base$path" | awk '{ print $1 * 1000 }' >>"$work/reads-$1"
        sleep 0.05
    done
}
# posts LABEL CONNECTIONS [HEADER]: one wrk run; appends "requests/s p99 errors non2xx" to $work/LABEL-CONNECTIONS.
posts() {
    local label=$1 connections=$2; shift 2
    rm -f "$work/stop-reader"
    reader "$label-$connections" &
    local reading=$!
    wrk -t "$threads" -c "$connections" -d "$duration" --latency -s "$work/post.lua" "$@" "$base/v1.1/messages" >"$work/out"
    touch "$work/stop-reader"
    wait $reading
    awk '
        /Requests\/sec/ { r = $2 }
        /^ +99%/ { p = $2; if (p ~ /us$/) p = p / 1000; else if (p ~ /ms$/) p = p + 0; else if (p ~ /s$/) p = p * 1000 }
        /Socket errors/ { gsub(",", ""); e += $4 + $6 + $8 + $10 }
        /Non-2xx/ { n = $5 }
        /requests in/ { total = $1 }
        END { print r, p, e + 0, n + 0, total }' "$work/out" >>"$work/$label-$connections"
}
echo "serve-posts: warming up…"
wrk -t "$threads" -c 16 -d 2s -s "$work/post.lua" -H "$auth" "$base/v1.1/messages" >/dev/null
for round in $(seq "$rounds"); do
    for connections in 16 128; do
        posts unauthorized "$connections"
        posts token "$connections" -H "$auth"
    done
    echo "serve-posts: round $round of $rounds done"
done
after=$(sqlite3 "$store" "SELECT count(*) FROM messages")

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
p99() { sort -n | awk '{ v[NR] = $1 } END { print v[int(NR * 0.99 + 0.999)] }'; }
echo
echo "== medians of $rounds rounds of $duration, wrk $threads threads (server and wrk on the same $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg))"
for connections in 16 128; do
    a=$(awk '{ print $1 }' "$work/unauthorized-$connections" | median)
    b=$(awk '{ print $1 }' "$work/token-$connections" | median)
    p=$(awk '{ print $2 }' "$work/token-$connections" | median)
    bad=$(awk '{ e += $3 + $4 } END { print e }' "$work/token-$connections")
    reads=$(cat "$work/reads-token-$connections")
    printf "%4d connections: 401 %8.0f posts/s | with a token %8.0f posts/s, p99 %.1f ms, errors or non-2xx %d | dashboard reads meanwhile: median %.1f ms, p99 %.1f ms (%d reads)\n" \
        "$connections" "$a" "$b" "$p" "$bad" "$(median <<<"$reads")" "$(p99 <<<"$reads")" "$(wc -l <<<"$reads")"
    awk -v a="$a" -v b="$b" -v p="$p" -v c="$connections" 'BEGIN {
        r = b / a
        printf "%4d connections: posts / 401 = %.2f   (floor 0.30)  %s;  p99 %.1f ms   (ceiling 50 ms)  %s\n", c, r, (r >= 0.3 ? "ok" : "BELOW FLOOR"), p, (p < 50 ? "ok" : "ABOVE CEILING") }'
done
posted=$(cat "$work"/token-* | awk '{ t += $5 - $4 } END { print t }')
echo "readings stored: $((after - before)) new, for $posted answered 2xx during the measured runs (plus the warm-up)"
