#!/usr/bin/env bash
# The change feed: post-to-event latency, median and p99, with 1 and 100 feeds open
# (dashboards following `GET /v1.1/hmon/changes`), measured at each client as it reads the `event: change`
# line; the same with 100 feeds when the posts go to a second server on the same store (seen through the
# first's 100 ms look at the change token on SQLite; with `--engine postgres`, two servers on one throwaway
# PostgreSQL, told by LISTEN/NOTIFY); then the server's CPU seconds (/proc/PID/stat) with those 100 feeds
# open and idle. Aims: under 200 ms; from a post on one server to the event on another under 50 ms p99.
#
#   Benchmarks/feed-latency.sh [--rounds 100] [--feeds 1,100] [--port 18095] [--engine sqlite|postgres]
#                              [--scratch-path DIR (default .build-release)]
#
# FEED_IDLE_SECONDS=10 shortens the idle minute for a quick run. HMON_BENCH_BIN=DIR measures the hmon already
# built in DIR (e.g. .build/debug). Needs curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=100
feeds=1,100
port=18095
engine=sqlite
scratch=(--scratch-path .build-release)
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --feeds) feeds=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --engine) engine=$2; shift 2 ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        *) echo "feed-latency: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
command -v curl >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq curl >/dev/null; }

if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    echo "feed-latency: building hmon (release)…"
    swift build -c release --static-swift-stdlib "${scratch[@]}" --product hmon >/dev/null
    bin=$(swift build -c release --static-swift-stdlib "${scratch[@]}" --show-bin-path)
fi

work=$(mktemp -d)
server=""
other=""
source Benchmarks/throwaway-postgres.sh
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "$other" ] && kill "$other" 2>/dev/null; wait 2>/dev/null
    stop_throwaway_postgres; rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
case "$engine" in
    sqlite) db=$work/hmon.sqlite ;;
    postgres) start_throwaway_postgres feeds; db=$database ;;
    *) echo "feed-latency: --engine is sqlite or postgres, not $engine" >&2; exit 2 ;;
esac
echo 'correct horse battery' | "$bin/hmon" user add alice --password-stdin --db "$db" >/dev/null
"$bin/hmon" device add --name Scale --type "Withings Device" --user alice --db "$db" >/dev/null

"$bin/hmon" serve --db "$db" --port "$port" --rate-limit off >/dev/null 2>&1 & server=$!
"$bin/hmon" serve --db "$db" --port "$((port + 1))" --rate-limit off >/dev/null 2>&1 & other=$!
until curl -s -o /dev/null "http://127.0.0.1:$port/" && curl -s -o /dev/null "http://127.0.0.1:$((port + 1))/"; do sleep 0.1; done
location=$(curl -s -o /dev/null -w '%{redirect_url}' -d client_id=hmon -d response_type=token \
    -d redirect_uri=hmon://signed-in -d username=alice -d 'password=correct horse battery' "http://127.0.0.1:$port/authorize")
token=${location##*access_token=}
auth="Authorization: Bearer $token"
uid=$(curl -s -H "$auth" "http://127.0.0.1:$port/v1.1/users/self" | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4)
sdid=$(curl -s -H "$auth" "http://127.0.0.1:$port/v1.1/users/$uid/devices" | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)

echo "feed-latency: hmon serve from $bin on $engine, posts through POST /v1.1/messages, $(nproc) cores"
python3 Benchmarks/feed-latency.py "$port" "$server" "$token" "$sdid" --feeds "$feeds" --rounds "$rounds" \
    --idle-seconds "${FEED_IDLE_SECONDS:-60}" --other-port "$((port + 1))"
