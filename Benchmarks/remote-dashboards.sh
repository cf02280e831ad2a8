#!/usr/bin/env bash
# Many remote dashboards on one server: 100 dashboards (threads with keep-alive connections) each open a
# screen every 2 s through the screen views, with the ETag they hold, while a weigh-in is posted every
# second, for 60 s; on the demo store in SQLite behind one server, then copied to PostgreSQL behind two
# servers (the dashboards split between them, the posts to the first). Prints requests/s, screen time
# p50/p99, errors and the servers' CPU. Aims: no errors, p99 under 250 ms.
#
#   Benchmarks/remote-dashboards.sh [--dashboards 100] [--seconds 60] [--engines sqlite,postgres] [--port 18300]
#
# The servers run with `--rate-limit off`: 100 dashboards from one address are a load test, not one person.
# HMON_BENCH_PG_STATEMENTS=1 prints the statements that took PostgreSQL's time (pg_stat_statements).
# HMON_BENCH_BIN=DIR measures the hmon already built in DIR (e.g. .build/debug). Needs curl and python3;
# PostgreSQL is installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

dashboards=100
seconds=60
engines=sqlite,postgres
port=18300
while [ $# -gt 0 ]; do
    case "$1" in
        --dashboards) dashboards=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --engines) engines=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) echo "remote-dashboards: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
command -v curl >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq curl >/dev/null; }

if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    echo "remote-dashboards: building hmon (release)…"
    swift build -c release --static-swift-stdlib --scratch-path .build-release --product hmon >/dev/null
    bin=$(swift build -c release --static-swift-stdlib --scratch-path .build-release --show-bin-path)
fi

work=$(mktemp -d)
servers=()
source Benchmarks/throwaway-postgres.sh
stop_servers() {
    for pid in ${servers[@]+"${servers[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    servers=()
}
cleanup() { stop_servers; stop_throwaway_postgres; rm -rf "$work"; }
trap cleanup EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
db=$work/demo.sqlite
"$bin/hmon" demo --db "$db" >/dev/null

serve() {   # serve STORE PORT
    "$bin/hmon" serve --db "$1" --port "$2" --rate-limit off >"$work/serve-$2.log" 2>&1 & servers+=($!)
    until curl -s -o /dev/null "http://127.0.0.1:$2/"; do sleep 0.1; done
}
sign_in() {   # sign_in PORT: sets $token
    local location
    location=$(curl -s -o /dev/null -w '%{redirect_url}' -d client_id=hmon -d response_type=token \
        -d redirect_uri=hmon://signed-in -d username=demo -d password=demo "http://127.0.0.1:$1/authorize")
    token=${location##*access_token=}
}
pids() { local IFS=,; echo "${servers[*]}"; }

echo "remote-dashboards: hmon from $bin, $(nproc) cores, the demo store"
if [[ $engines == *sqlite* ]]; then
    serve "$db" "$port"
    sign_in "$port"
    python3 Benchmarks/remote-dashboards.py "$token" "$port" --pids "$(pids)" --dashboards "$dashboards" \
        --seconds "$seconds" --label "SQLite, one server: "
    stop_servers
fi
if [[ $engines == *postgres* ]]; then
    if [ -n "${HMON_BENCH_PG_STATEMENTS:-}" ]; then
        start_throwaway_postgres dashboards -c max_connections=200 -c shared_preload_libraries=pg_stat_statements
    else
        start_throwaway_postgres dashboards -c max_connections=200
    fi
    "$bin/hmon" db copy "$db" "$database" >/dev/null
    [ -n "${HMON_BENCH_PG_STATEMENTS:-}" ] && "$pgbin/psql" "$database" -qc "CREATE EXTENSION pg_stat_statements; SELECT pg_stat_statements_reset()" >/dev/null
    serve "$database" "$port"
    serve "$database" "$((port + 1))"
    sign_in "$port"
    python3 Benchmarks/remote-dashboards.py "$token" "$port,$((port + 1))" --pids "$(pids)" --dashboards "$dashboards" \
        --seconds "$seconds" --post-port "$port" --label "PostgreSQL, two servers on one database: "
    stop_servers
    if [ -n "${HMON_BENCH_PG_STATEMENTS:-}" ]; then
        echo "the statements that took PostgreSQL's time, most first:"
        "$pgbin/psql" "$database" -AF ' | ' -c "SELECT round(total_exec_time) AS total_ms, calls, round(mean_exec_time::numeric, 2) AS mean_ms,
            rows, left(regexp_replace(query, '\s+', ' ', 'g'), 160) FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12"
    fi
fi
