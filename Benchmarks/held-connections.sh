#!/usr/bin/env bash
# Real requests while one host holds thousands of connections: from 127.0.0.1 a client
# opens 2,000 connections that send half a request line and 5,000 that send nothing; meanwhile a real user
# signed in from 127.0.0.2 sends `GET /v1.1/users/self` on a fresh connection every 20 ms. Prints how many
# real requests were answered 200, their median and p99 (connect to last byte), each against the aim "a
# real request is answered within 100 ms", and how many held connections the server closed. Three runs:
# the server's default caps (2,000 in all, 500 per address); the same while the client reopens every
# connection the server closes, as fast as it can (a connection flood on top); and the per-address cap at
# the total, where the total cap alone must make room.
#
#   Benchmarks/held-connections.sh [--requests 300] [--half-sent 2000] [--idle 5000] [--port 18091]
#                                  [--scratch-path DIR (default .build-release)]
#
# Public tools only: python3 (the raw sockets) and hmon itself, built in release.
# HMON_BENCH_BIN=DIR measures the hmon already built in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

requests=300
half_sent=2000
idle=5000
port=18091
scratch=(--scratch-path .build-release)
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) requests=$2; shift 2 ;;
        --half-sent) half_sent=$2; shift 2 ;;
        --idle) idle=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        *) echo "held-connections: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
command -v python3 >/dev/null 2>&1 || { echo "held-connections: needs python3" >&2; exit 2; }
# One descriptor per held connection in the client, and as many in the server (which raises its own limit).
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((half_sent + idle + 100)) ]; then
    echo "held-connections: the descriptor limit ($(ulimit -n)) is below $((half_sent + idle + 100)); pass smaller --half-sent/--idle" >&2
    exit 2
fi

if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    echo "held-connections: building hmon (release)…"
    swift build -c release --static-swift-stdlib "${scratch[@]}" --product hmon >/dev/null
    bin=$(swift build -c release --static-swift-stdlib "${scratch[@]}" --show-bin-path)
fi

work=$(mktemp -d)
server=""
holder=""
cleanup() {
    [ -n "$holder" ] && kill "$holder" 2>/dev/null
    [ -n "$server" ] && kill "$server" 2>/dev/null
    wait 2>/dev/null; rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
echo 'correct horse battery' | "$bin/hmon" user add alice --password-stdin --db "$work/hmon.sqlite" >/dev/null

cat > "$work/clients.py" <<'PY'
"""hold PORT HALF IDLE REOPEN: holds connections from 127.0.0.1 until killed (reopening closed ones if REOPEN is 1).
   real PORT COUNT: signs in from 127.0.0.2, then times COUNT requests; prints 'status seconds' lines."""
import selectors, signal, sys, time
from loopback_http import connect, exchange as exchange_from, sign_in

def hold(port, half, idle, reopen):
    payloads = [b"GET /v1.1/users/se"] * half + [b""] * idle
    selector = selectors.DefaultSelector()
    def open_one(payload):
        try:
            sock = connect(port, "127.0.0.1")
            if payload: sock.sendall(payload)
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, payload)
            return True
        except OSError:
            return False
    for payload in payloads:
        open_one(payload)
    print(f"opened {len(selector.get_map())}", flush=True)
    closed = 0
    def report(*_):
        print(f"closed by the server: {closed}" + (", reopened each time" if reopen else ""), flush=True)
        sys.exit(0)
    signal.signal(signal.SIGTERM, report)
    while True:  # Reopen whatever the server closes (a 503 or a shed connection), until killed.
        for key, _ in selector.select(timeout=1):
            try:
                data = key.fileobj.recv(65536)
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj); key.fileobj.close(); closed += 1
                if reopen: open_one(key.data)

def exchange(port, request):
    return exchange_from(port, "127.0.0.2", request)

def real(port, count):
    token = sign_in(port, "127.0.0.2", "alice", "correct horse battery")
    request = b"GET /v1.1/users/self HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token + b"\r\nConnection: close\r\n\r\n"
    for _ in range(count):
        try:
            answer, seconds = exchange(port, request)
            status = answer.split(b" ")[1].decode() if answer else "none"
        except OSError as error:
            status, seconds = type(error).__name__, 0.0
        print(status, f"{seconds:.6f}", flush=True)
        time.sleep(0.02)

if __name__ == "__main__":
    if sys.argv[1] == "hold": hold(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1")
    else: real(int(sys.argv[2]), int(sys.argv[3]))
PY

run() {  # run LABEL REOPEN [SERVE OPTIONS…]
    local label=$1 reopen=$2; shift 2
    "$bin/hmon" serve --db "$work/hmon.sqlite" --port "$port" "$@" >/dev/null 2>&1 & server=$!
    until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), timeout=1)" 2>/dev/null; do sleep 0.1; done
    PYTHONPATH="$PWD/Benchmarks" python3 "$work/clients.py" hold "$port" "$half_sent" "$idle" "$reopen" > "$work/hold" 2>&1 & holder=$!
    until grep -q "^opened" "$work/hold"; do sleep 0.2; done
    PYTHONPATH="$PWD/Benchmarks" python3 "$work/clients.py" real "$port" "$requests" > "$work/real"
    kill "$holder"; wait "$holder" 2>/dev/null || true; holder=""
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
    local total ok p50 p99
    total=$(wc -l < "$work/real")
    ok=$(grep -c '^200 ' "$work/real" || true)
    p50=$(awk '{print $2}' "$work/real" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR + 1) / 2)] * 1000}')
    p99=$(awk '{print $2}' "$work/real" | sort -n | awk '{a[NR]=$1} END {i = int(NR * 0.99); if (i < 1) i = 1; printf "%.1f", a[i] * 1000}')
    echo "== $label: $half_sent half-sent and $idle idle connections from 127.0.0.1 (on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)) =="
    printf '   real requests answered 200: %d of %d (others: %s)\n' "$ok" "$total" \
        "$(grep -v '^200 ' "$work/real" | awk '{print $1}' | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}' | grep . || echo none)"
    awk -v m="$p50" -v p="$p99" 'BEGIN {
        printf "   median %6.1f ms   %5.2f× the aim of 100 ms  %s\n", m, m / 100, (m < 100 ? "ok" : "NOT MET")
        printf "   p99    %6.1f ms   %5.2f× the aim of 100 ms  %s\n", p, p / 100, (p < 100 ? "ok" : "NOT MET") }'
    printf '   %s connections; %s\n' "$(head -1 "$work/hold")" "$(grep 'closed by' "$work/hold" | tail -1)"
}

run "default caps (2000, 500 per address)" 0
run "default caps, closed ones reopened" 1
run "per-address cap at the total (2000)" 0 --max-connections-per-address 2000
