#!/usr/bin/env bash
# PostgreSQL stopped under a running `hmon serve` : how long the first request after the
# stop takes to be answered, and with what; the same for the requests after it; whether an open change feed
# kept its heartbeat meanwhile; and, once the database is started again, how long until a request succeeds
# (polled every 50 ms, no restart of the server). Aims: a 503 with Retry-After within 5 s, heartbeats on,
# success within 2 s of the database's return.
#
#   Benchmarks/postgres-outage.sh [--down-seconds 20] [--port 18097]
#
# --down-seconds is how long the database stays down (long enough for postgres-nio's reconnection backoff to
# grow, which is what kept the old server failing after the database's return). HMON_BENCH_BIN=DIR measures
# the hmon already built in DIR (e.g. .build/debug). Needs curl and python3 (for the clock).
set -euo pipefail
cd "$(dirname "$0")/.."

down=20
port=18097
while [ $# -gt 0 ]; do
    case "$1" in
        --down-seconds) down=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) echo "postgres-outage: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
command -v curl >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq curl >/dev/null; }

source Benchmarks/release-hmon.sh
[ -n "${HMON_BENCH_BIN:-}" ] || echo "postgres-outage: building hmon (release)…"
hmon=$(release_hmon)

work=$(mktemp -d)
server=""
feed=""
source Benchmarks/throwaway-postgres.sh
cleanup() {
    [ -n "$feed" ] && kill "$feed" 2>/dev/null; [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null
    stop_throwaway_postgres; rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
now() { python3 -c 'import time; print(f"{time.monotonic():.3f}")'; }
since() { python3 -c "print(f'{$(now) - $1:.2f}')"; }

start_throwaway_postgres outage
db=$database
echo 'correct horse battery' | "$hmon" user add alice --password-stdin --db "$db" >/dev/null
"$hmon" device add --name Scale --type "Withings Device" --user alice --db "$db" >/dev/null
"$hmon" serve --db "$db" --port "$port" --rate-limit off --feed-heartbeat 1 >"$work/serve.log" 2>&1 & server=$!
until curl -s -o /dev/null "http://127.0.0.1:$port/"; do sleep 0.1; done
location=$(curl -s -o /dev/null -w '%{redirect_url}' -d client_id=hmon -d response_type=token \
    -d redirect_uri=hmon://signed-in -d username=alice -d 'password=correct horse battery' "http://127.0.0.1:$port/authorize")
token=${location##*access_token=}
auth="Authorization: Bearer $token"
url="http://127.0.0.1:$port/v1.1/users/self"
uid=$(curl -s -H "$auth" "$url" | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4)
sdid=$(curl -s -H "$auth" "http://127.0.0.1:$port/v1.1/users/$uid/devices" | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)
curl -s -o /dev/null -H "$auth" -H 'Content-Type: application/json' \
    -d "{\"sdid\":\"$sdid\",\"data\":{\"weight\":71.5}}" "http://127.0.0.1:$port/v1.1/messages"
curl -s -N -H "$auth" "http://127.0.0.1:$port/v1.1/hmon/changes" >"$work/feed.txt" & feed=$!
until grep -q 'event: ready' "$work/feed.txt" 2>/dev/null; do sleep 0.05; done

echo "postgres-outage: hmon serve $hmon, $(nproc) cores; stopping PostgreSQL (pg_ctl stop -m immediate)"
"${runas[@]+"${runas[@]}"}" "$pgbin/pg_ctl" -D "$pgdata/data" -m immediate -w stop >/dev/null
stopped=$(now)
beats_at_stop=$(grep -c ': heartbeat' "$work/feed.txt" || true)
first=$(curl -s -o "$work/first.json" -D "$work/first.head" -w '%{http_code} %{time_total}' -H "$auth" "$url")
echo "first request after the stop:  HTTP ${first% *} in ${first#* } s, $(grep -i '^retry-after' "$work/first.head" | tr -d '\r' || echo 'no Retry-After'); $(cat "$work/first.json")"
for i in 1 2 3; do
    later=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "$auth" "$url")
    echo "request $((i + 1)) after the stop:     HTTP ${later% *} in ${later#* } s"
done
worst=0
while python3 -c "import sys; sys.exit(0 if $(since "$stopped") < $down else 1)"; do
    took=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "$auth" "$url")
    [ "${took% *}" = 503 ] || echo "  answered HTTP ${took% *} while down"
    worst=$(python3 -c "print(max($worst, ${took#* }))")
    sleep 0.5
done
beats=$(( $(grep -c ': heartbeat' "$work/feed.txt" || true) - beats_at_stop ))
echo "while down ${down} s: slowest answer ${worst} s; feed heartbeats received: $beats (one a second expected)"

"${runas[@]+"${runas[@]}"}" "$pgbin/pg_ctl" -D "$pgdata/data" -l "$pgdata/server.log" -w -o "-k $pgdata -c listen_addresses=''" start >/dev/null
started=$(now)
tries=0
until [ "$(curl -s -o /dev/null -w '%{http_code}' -H "$auth" "$url")" = 200 ]; do
    tries=$((tries + 1))
    sleep 0.05
done
echo "first 200 after PostgreSQL took connections again: $(since "$started") s ($tries refused meanwhile)"
echo "the server's log about it (once per outage):"
grep 'database' "$work/serve.log" | sed 's/^/  /' || true
