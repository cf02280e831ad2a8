#!/usr/bin/env bash
# Throughput and latency of `hmon serve` for the dashboard's hot call, GET /v1.1/messages/last?count=20,
# on a store of 1,000,000 readings, with wrk on loopback at 16 and 128 connections: on the SQLite file,
# on PostgreSQL with one server, and on PostgreSQL with two servers sharing the database (wrk then sends
# half the connections to each, and the two rates are added).
#
#   Benchmarks/serve-wrk-stores.sh [--readings N] [--duration 20s] [--threads 2] [--port 18080] [--scratch-path DIR (default .build-release)]
#                           [--engines sqlite,postgres] [--debug]
#
# PostgreSQL: a throwaway cluster in a temporary folder (initdb, a Unix socket there; as root it runs as the
# `postgres` account), filled by `hmon db copy` from the SQLite store, stopped at the end. `postgresql` is
# installed with apt-get when initdb is missing. --debug measures the debug build in .build (a quick check of
# the script; its figures are not the release build's).
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
engines=sqlite,postgres
configuration=(-c release --static-swift-stdlib)
while [ $# -gt 0 ]; do
    case "$1" in
        --readings) readings=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --rebuild) rebuild="--rebuild"; shift ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        --engines) engines=$2; shift 2 ;;
        --debug) configuration=(-c debug); scratch=(); shift ;;
        *) echo "serve-wrk: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v curl >/dev/null 2>&1 || need+=(curl)
if [[ $engines == *postgres* ]]; then
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "serve-wrk: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "serve-wrk: building hmon and hmon-bench (${configuration[1]})…"
buildlog=$(mktemp)
for product in hmon hmon-bench; do
    if ! swift build "${configuration[@]}" ${scratch[@]+"${scratch[@]}"} --product "$product" >"$buildlog" 2>&1; then
        cat "$buildlog" >&2
        exit 1
    fi
done
rm -f "$buildlog"
bin=$(swift build "${configuration[@]}" ${scratch[@]+"${scratch[@]}"} --show-bin-path)

store="${TMPDIR:-/tmp}/hmon-bench/serve-${readings}.sqlite"
mkdir -p "$(dirname "$store")"
# Builds the store when it is missing (user "bench", password "benchmark", 5 devices); one quick
# measurement run keeps that step short.
"$bin/hmon-bench" store --db "$store" --readings "$readings" --iterations 1 $rebuild | grep -E "building|built|store:" || true

servers=()
logs=()
source Benchmarks/throwaway-postgres.sh
cleanup() {
    for pid in ${servers[@]+"${servers[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    stop_throwaway_postgres
    rm -f ${logs[@]+"${logs[@]}"}
}
trap cleanup EXIT

# Starts `hmon serve --db $1` on port $2 and waits until it answers.
serve() {
    local log
    log=$(mktemp)
    logs+=("$log")
    "$bin/hmon" serve --db "$1" --host 127.0.0.1 --port "$2" --rate-limit off >/dev/null 2>"$log" &
    servers+=($!)
    for _ in $(seq 1 100); do
        curl -s -o /dev/null "http://127.0.0.1:$2/authorize?client_id=hmon&response_type=token" && return 0
        sleep 0.1
    done
    echo "serve-wrk: hmon serve --db $1 did not start:" >&2
    cat "$log" >&2
    exit 1
}

stop_servers() {
    for pid in ${servers[@]+"${servers[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    servers=()
}

source Benchmarks/bench-sign-in.sh

# Runs wrk at 16 and 128 connections against the servers on the ports given, the connections split
# evenly; prints each server's lines and, with two, the sum of their rates.
measure() {
    local label=$1
    shift
    local ports=("$@") n=${#@}
    for port in "${ports[@]}"; do wrk -t 1 -c 8 -d 3s -H "$auth" "http://127.0.0.1:$port$path" >/dev/null; done
    for connections in 16 128; do
        echo
        echo "== $label: $connections connections, $threads wrk threads, $duration (on $(nproc) cores) =="
        local outs=() pids=()
        for port in "${ports[@]}"; do
            local out
            out=$(mktemp)
            outs+=("$out")
            wrk -t "$(( threads > n ? threads / n : 1 ))" -c "$(( connections / n ))" -d "$duration" --latency -H "$auth" \
                "http://127.0.0.1:$port$path" >"$out" &
            pids+=($!)
        done
        wait "${pids[@]}"
        local total=0
        for out in "${outs[@]}"; do
            if [ "$n" -gt 1 ]; then echo "-- one server:"; fi
            grep -E "Requests/sec|Transfer/sec|Latency|^ +(50|75|90|99)%|requests in|Socket errors|Non-2xx" "$out"
            total=$(awk -v t="$total" '/Requests\/sec/ { print t + $2 }' "$out")
            rm -f "$out"
        done
        if [ "$n" -gt 1 ]; then echo "Requests/sec, both servers: $total"; fi
    done
}

echo "serve-wrk: $readings readings in $store"
if [[ $engines == *sqlite* ]]; then
    serve "$store" "$port"
    sign_in "$port"
    measure "SQLite, one server" "$port"
    stop_servers
fi

if [[ $engines == *postgres* ]]; then
    # shared_buffers large enough to hold the readings' indexes.
    start_throwaway_postgres wrk -c shared_buffers=512MB -c max_connections=200
    started=$(date +%s.%N)
    "$bin/hmon" db copy "$store" "$database"
    echo "serve-wrk: copied in $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
    "$pgbin/psql" "$database" -qc "VACUUM ANALYZE"

    serve "$database" "$port"
    sign_in "$port"
    measure "PostgreSQL, one server" "$port"
    serve "$database" "$((port + 1))"
    measure "PostgreSQL, two servers on one database" "$port" "$((port + 1))"
    stop_servers
fi
