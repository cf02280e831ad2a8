#!/usr/bin/env bash
# Throughput and latency of `hmon serve` for the dashboard's hot call, GET /v1.1/messages/last?count=20,
# on a store of 1,000,000 readings, with wrk on loopback at 16 and 128 connections.
#
#   Benchmarks/serve-wrk.sh [--readings N] [--duration 20s] [--threads 2] [--port 18080] [--scratch-path DIR (default .build-release)]
#
# Public tools only: wrk (installed with apt-get when missing), curl, and hmon itself, built in release.
# The store is built once by `hmon-bench store` and reused (delete it, or pass --rebuild, to start over).
set -euo pipefail
cd "$(dirname "$0")/.."

readings=1000000
duration=20s
threads=2
port=18080
rebuild=""
scratch=(--scratch-path .build-release)
while [ $# -gt 0 ]; do
    case "$1" in
        --readings) readings=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
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

# Sign in as the ancestor app did: post the form, read the token from the redirect (not followed).
location=$(curl -s -o /dev/null -w '%{redirect_url}' \
    --data-urlencode client_id=hmon --data-urlencode response_type=token \
    --data-urlencode redirect_uri=hmon://signed-in --data-urlencode username=bench --data-urlencode password=benchmark \
    "$base/authorize")
token=${location##*access_token=}
[ -n "$token" ] && [ "$token" != "$location" ] || { echo "serve-wrk: sign-in failed: $location" >&2; exit 1; }
auth="Authorization: Bearer $token"
uid=$(curl -s -H "$auth" "$base/v1.1/users/self" | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)
sdid=$(curl -s -H "$auth" "$base/v1.1/users/$uid/devices" | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)
url="$base/v1.1/messages/last?count=20&sdids=$sdid"
size=$(curl -s -H "$auth" "$url" | grep -o '"size":[0-9]*')
echo "serve-wrk: $readings readings in $store; GET /v1.1/messages/last?count=20 answers $size"

echo "serve-wrk: warming up…"
wrk -t "$threads" -c 16 -d 3s -H "$auth" "$url" >/dev/null

for connections in 16 128; do
    echo
    echo "== $connections connections, $threads wrk threads, $duration (server on $(nproc) cores) =="
    wrk -t "$threads" -c "$connections" -d "$duration" --latency -H "$auth" "$url" \
        | grep -E "Requests/sec|Transfer/sec|Latency|^ +(50|75|90|99)%|requests in|Socket errors|Non-2xx"
done
