#!/usr/bin/env bash
# Each screen view's time on SQLite and on PostgreSQL, served from a running `hmon serve`, on a store of
# 1,000,000 readings over 5 devices (hmon-bench's store, user "bench"): the median of ROUNDS requests a
# screen, one at a time, without a validator and each computed (a `round` parameter the server ignores
# keeps it from answering with a kept answer), after a first round that fills the
# per-day sums both engines keep. First, the same screens whole-process, as the dashboard and scripts run
# them directly on a store: `hmon snapshot --db STORE --screen NAME`, the median of ROUNDS launches a screen
# (and the first launch's time), on a store no server has kept day sums in (SQLite's kept ones dropped; a
# copy to PostgreSQL takes none): a read-only run on SQLite makes its sums each time, one on PostgreSQL
# keeps them for the next. Aim, both ways: every screen on PostgreSQL within 1.5× of SQLite's.
#
#   Benchmarks/views-by-engine.sh [--readings 1000000] [--rounds 20] [--port 18330]
#
# HMON_BENCH_PG_STATEMENTS=1 prints the statements that took PostgreSQL's time (pg_stat_statements).
# HMON_BENCH_BIN=DIR measures the hmon and hmon-bench already built in DIR. Needs curl and python3;
# PostgreSQL is installed when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

readings=1000000
rounds=20
port=18330
while [ $# -gt 0 ]; do
    case "$1" in
        --readings) readings=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) echo "views-by-engine: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
command -v curl >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq curl >/dev/null; }
if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    echo "views-by-engine: building hmon and hmon-bench (release)…"
    swift build -c release --static-swift-stdlib --scratch-path .build-release --product hmon >/dev/null
    swift build -c release --static-swift-stdlib --scratch-path .build-release --product hmon-bench >/dev/null
    bin=$(swift build -c release --static-swift-stdlib --scratch-path .build-release --show-bin-path)
fi

store="${TMPDIR:-/tmp}/hmon-bench/serve-${readings}.sqlite"
mkdir -p "$(dirname "$store")"
"$bin/hmon-bench" store --db "$store" --readings "$readings" --iterations 1 | grep -E "building|built" || true

work=$(mktemp -d)
server=""
source Benchmarks/throwaway-postgres.sh
cleanup() { [ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; }; stop_throwaway_postgres; rm -rf "$work"; }
trap cleanup EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config

measure() {   # measure STORE: prints the medians as JSON
    "$bin/hmon" serve --db "$1" --port "$port" --rate-limit off >"$work/serve.log" 2>&1 & server=$!
    until curl -s -o /dev/null "http://127.0.0.1:$port/"; do sleep 0.1; done
    local location token
    location=$(curl -s -o /dev/null -w '%{redirect_url}' -d client_id=hmon -d response_type=token \
        -d redirect_uri=hmon://signed-in -d username=bench -d password=benchmark "http://127.0.0.1:$port/authorize")
    token=${location##*access_token=}
    python3 Benchmarks/remote-dashboards.py "$token" "$port" --pids "$server" --sequential 1 >/dev/null
    python3 Benchmarks/remote-dashboards.py "$token" "$port" --pids "$server" --sequential "$rounds"
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
}

snapshots() {   # snapshots STORE: the median ms of ROUNDS whole-process snapshots a screen, as JSON
    python3 - "$bin/hmon" "$1" "$rounds" <<'PY'
import json, statistics, subprocess, sys, time
hmon, store, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
medians = {}
for screen in ["devices", "weights", "energy", "hrv", "insights", "overview"]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        subprocess.run([hmon, "snapshot", "--db", store, "--user", "bench", "--screen", screen, "--size", "120x40"],
                       check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - started) * 1000)
    medians[screen] = statistics.median(times)
    medians[screen + " first"] = times[0]
print(json.dumps(medians))
PY
}

python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('DELETE FROM day_totals_cache'); c.commit()" "$store"
sqlite_process=$(snapshots "$store")
sqlite=$(measure "$store")
start_throwaway_postgres views -c shared_buffers=512MB -c shared_preload_libraries=pg_stat_statements
copy_started=$(date +%s.%N)
"$bin/hmon" db copy "$store" "$database" >/dev/null
echo "views-by-engine: hmon db copy to PostgreSQL took $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$copy_started" "$(date +%s.%N)") s" >&2
[ -n "${HMON_BENCH_PG_STATEMENTS:-}" ] && "$pgbin/psql" "$database" -qc "CREATE EXTENSION pg_stat_statements; SELECT pg_stat_statements_reset()" >/dev/null
postgres_process=$(snapshots "$database")
postgres=$(measure "$database")
if [ -n "${HMON_BENCH_PG_STATEMENTS:-}" ]; then
    echo "the statements that took PostgreSQL's time, most first:"
    "$pgbin/psql" "$database" -AF ' | ' -c "SELECT round(total_exec_time) AS total_ms, calls, round(mean_exec_time::numeric, 2) AS mean_ms,
        rows, left(regexp_replace(query, '\s+', ' ', 'g'), 160) FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12"
fi
python3 - "$sqlite" "$postgres" "$sqlite_process" "$postgres_process" "$readings" <<'PY'
import json, sys
runs = [("screen view, served", json.loads(sys.argv[1]), json.loads(sys.argv[2])),
        ("hmon snapshot, whole process", json.loads(sys.argv[3]), json.loads(sys.argv[4]))]
for title, sqlite, postgres in runs:
    print(f"views-by-engine: {int(sys.argv[5]):,} readings, median ms per {title} (aim: PostgreSQL ≤ 1.5 × SQLite)")
    for name in (name for name in sqlite if not name.endswith(" first")):
        ratio = postgres[name] / sqlite[name]
        first = f"  (first launch {sqlite[name + ' first']:.0f} / {postgres[name + ' first']:.0f})" if name + " first" in sqlite else ""
        print(f"  {name:<9} SQLite {sqlite[name]:7.1f}  PostgreSQL {postgres[name]:7.1f}  ratio {ratio:4.2f} {'ok' if ratio <= 1.5 else 'NOT MET'}{first}")
PY
