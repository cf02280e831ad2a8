#!/usr/bin/env bash
# `hmon serve` on the dashboard's hot call, GET /v1.1/messages/last?count=20 with a valid token, against the
# same server answering 401 to the same request without a token (its framework's ceiling here), on a
# store of 1,000,000 readings, with wrk on loopback at 16 and 128 connections. Each round measures the
# 401 path and the token path in turn, so a machine shared with other work slows both alike; prints the
# medians and the ratio against its floor of 0.60. Then 60 s at 128 connections with the token: errors
# (floor: none) and the server's resident memory at the 10th and 60th second (within 10 %).
#
#   Benchmarks/serve-wrk.sh [--readings N] [--duration 10s] [--rounds 3] [--threads 2] [--port 18080]
#                           [--scratch-path DIR (default .build-release)]
#
# Public tools only: wrk and curl (installed with apt-get when missing: apt-get install -y wrk curl), and
# hmon itself, built in release. The store is built once by `hmon-bench store` and reused (delete it, or
# pass --rebuild, to start over). HMON_BENCH_BIN=DIR measures the hmon and hmon-bench already built in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

readings=1000000
duration=10s
rounds=3
threads=2
port=18080
rebuild=""
scratch=(--scratch-path .build-release)
while [ $# -gt 0 ]; do
    case "$1" in
        --readings) readings=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --rebuild) rebuild="--rebuild"; shift ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        *) echo "serve-wrk: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v curl >/dev/null 2>&1 || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
    echo "serve-wrk: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN  # the hmon and hmon-bench already built there (another commit, for an A/B)
else
    echo "serve-wrk: building hmon and hmon-bench (release)…"
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

store="${TMPDIR:-/tmp}/hmon-bench/serve-${readings}.sqlite"
mkdir -p "$(dirname "$store")"
# Builds the store when it is missing (user "bench", password "benchmark", 5 devices); one quick
# measurement run keeps that step short.
"$bin/hmon-bench" store --db "$store" --readings "$readings" --iterations 1 $rebuild | grep -E "building|built|store:" || true

log=$(mktemp)
"$bin/hmon" serve --db "$store" --host 127.0.0.1 --port "$port" --rate-limit off >/dev/null 2>"$log" &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$log"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -s -o /dev/null "$base/authorize?client_id=hmon&response_type=token" && break
    sleep 0.1
done

source Benchmarks/bench-sign-in.sh
echo "serve-wrk: $readings readings in $store"
sign_in "$port"
url="$base$path"

echo "serve-wrk: warming up…"
wrk -t "$threads" -c 16 -d 3s -H "$auth" "$url" >/dev/null

# rps LABEL CONNECTIONS [HEADER]: one wrk run; appends "requests/s p99 errors" to $work/LABEL-CONNECTIONS.
work=$(mktemp -d)
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$log" "$work"' EXIT
rps() {
    local label=$1 connections=$2; shift 2
    local out
    out=$(wrk -t "$threads" -c "$connections" -d "$duration" --latency "$@" "$url")
    awk -v label="$label" '
        /Requests\/sec/ { r = $2 }
        /^ +99%/ { p = $2 }
        /Socket errors/ { gsub(",", ""); e += $4 + $6 + $8 + $10 }
        /Non-2xx/ { n = $5 }
        END { print r, p, e + 0, n + 0 }' <<<"$out" >>"$work/$label-$connections"
}
for round in $(seq "$rounds"); do
    for connections in 16 128; do
        rps unauthorized "$connections"
        rps token "$connections" -H "$auth"
    done
    echo "serve-wrk: round $round of $rounds done"
done

median() { awk '{ print $1 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo
echo "== medians of $rounds rounds of $duration, wrk $threads threads (server and wrk on the same $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg))"
for connections in 16 128; do
    a=$(median "$work/unauthorized-$connections")
    b=$(median "$work/token-$connections")
    errors=$(awk '{ e += $3 } END { print e }' "$work/token-$connections")
    non2xx=$(awk '{ n += $4 } END { print n }' "$work/token-$connections")
    p99=$(awk '{ print $2 }' "$work/token-$connections" | tr '\n' ' ')
    printf "%4d connections: 401 without a token %8.0f req/s | count=20 with a token %8.0f req/s (p99 per round: %s; errors %d, non-2xx %d)\n" \
        "$connections" "$a" "$b" "$p99" "$errors" "$non2xx"
    awk -v a="$a" -v b="$b" -v c="$connections" \
        'BEGIN { r = b / a; printf "%4d connections: token / 401 = %.2f   (floor 0.60)  %s\n", c, r, (r >= 0.6 ? "ok" : "BELOW FLOOR") }'
done

echo
echo "== 60 s at 128 connections with a token: errors and resident memory"
rss() { awk '/VmRSS/ { print $2 }' "/proc/$server/status"; }
wrk -t "$threads" -c 128 -d 60s -H "$auth" "$url" >"$work/soak" &
soak=$!
sleep 10; rss10=$(rss)
sleep 49; rss60=$(rss)
wait $soak
grep -E "Requests/sec|requests in|Socket errors|Non-2xx" "$work/soak" || true
errors=$(awk '/Socket errors/ { gsub(",", ""); e += $4 + $6 + $8 + $10 } /Non-2xx/ { e += $5 } END { print e + 0 }' "$work/soak")
awk -v a="$rss10" -v b="$rss60" -v e="$errors" 'BEGIN {
    g = (b - a) / a * 100
    printf "errors over 60 s: %d   (floor: none)  %s\n", e, (e == 0 ? "ok" : "ERRORS")
    printf "resident memory: %.1f MB at 10 s, %.1f MB at 60 s: %+.1f %%   (within 10 %%)  %s\n", a * 1.024 / 1000, b * 1.024 / 1000, g, (g <= 10 && g >= -10 ? "ok" : "NOT STABLE") }'
