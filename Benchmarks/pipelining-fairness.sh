#!/usr/bin/env bash
# Real requests while one host pipelines requests and reads no answer: from 127.0.0.2, 50 connections signed
# in as mallory send `GET /api/2/attributes/with-values/` back to back, as fast as the server takes them, and
# never read (a connection the server closes is opened again at once); meanwhile alice, signed in from
# 127.0.0.1, sends `GET /v1.1/users/self` on a fresh connection every 20 ms. Prints how many of alice's
# requests were answered 200, their median and p99 (connect to last byte) against the aim "p99 under 100 ms",
# then stops the pipeliners' sending (their connections held open) and prints the server's CPU over the
# next 10 s (aim: it stops working for them) and how many of their connections it closed by then.
# Twice: with the default rate limit (mallory's token is soon answered 429) and with `--rate-limit off`.
#
#   Benchmarks/pipelining-fairness.sh [--requests 400] [--pipeliners 50] [--port 18096]
#
# Public tools only: python3 (raw sockets) and hmon itself, built in release (`release-hmon.sh`).
# HMON_BENCH_BIN=DIR measures the hmon already built in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/release-hmon.sh

requests=400
pipeliners=50
port=18096
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) requests=$2; shift 2 ;;
        --pipeliners) pipeliners=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        *) echo "pipelining-fairness: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
command -v python3 >/dev/null 2>&1 || { echo "pipelining-fairness: needs python3" >&2; exit 2; }
[ -n "${HMON_BENCH_BIN:-}" ] || echo "pipelining-fairness: building hmon (release)…"
hmon=$(release_hmon)

work=$(mktemp -d)
server=""
flood=""
cleanup() {
    [ -n "$flood" ] && kill "$flood" 2>/dev/null
    [ -n "$server" ] && kill "$server" 2>/dev/null
    wait 2>/dev/null; rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
for name in alice mallory; do
    echo 'correct horse battery' | "$hmon" user add "$name" --password-stdin --db "$work/hmon.sqlite" >/dev/null
done

cat > "$work/clients.py" <<'PY'
"""token PORT SOURCE NAME: signs NAME in from SOURCE; prints the access token.
   flood PORT COUNT TOKEN: pipelines from 127.0.0.2 on COUNT connections, reading nothing, until SIGUSR1
   (then holds them open, sending nothing) and SIGTERM; prints what it sent and how many the server closed.
   real PORT COUNT TOKEN: times COUNT requests from 127.0.0.1; prints 'status seconds' lines."""
import select, signal, sys, time
from loopback_http import connect, exchange as exchange_from, sign_in

def exchange(port, source, request, timeout=5):
    return exchange_from(port, source, request, timeout)

def token(port, source, name):
    return sign_in(port, source, name, "correct horse battery")

def flood(port, count, bearer):
    request = b"GET /api/2/attributes/with-values/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + bearer + b"\r\n\r\n"
    burst = request * 400
    poller = select.poll()
    sockets = {}   # fd: [socket, offset into burst]
    state = {"sending": True, "sent": 0, "closed": 0}
    gone_mask = select.POLLRDHUP | select.POLLHUP | select.POLLERR
    def watch(fd):
        # The server's close shows as POLLRDHUP/POLLHUP without reading: its answers are never read.
        poller.register(fd, gone_mask | (select.POLLOUT if state["sending"] else 0))
    def open_one():
        try:
            sock = connect(port, "127.0.0.2")
            sock.setblocking(False)
            sockets[sock.fileno()] = [sock, 0]
            watch(sock.fileno())
        except OSError:
            pass
    for _ in range(count): open_one()
    print(f"opened {len(sockets)}", flush=True)
    def stop_sending(*_):
        state["sending"] = False
        for fd in sockets: poller.modify(fd, gone_mask)
    def report(*_):
        print(f"sent {state['sent'] // len(request)} requests; connections closed by the server: {state['closed']}", flush=True)
        sys.exit(0)
    signal.signal(signal.SIGUSR1, stop_sending)
    signal.signal(signal.SIGTERM, report)
    while True:
        for fd, events in poller.poll(1000):
            if fd not in sockets: continue
            sock, offset = sockets[fd]
            gone = bool(events & gone_mask)
            if not gone and state["sending"] and events & select.POLLOUT:
                try:
                    n = sock.send(burst[offset:])
                    state["sent"] += n
                    sockets[fd][1] = (offset + n) % len(burst)
                except BlockingIOError:
                    pass
                except OSError:
                    gone = True
            if gone:
                poller.unregister(fd); del sockets[fd]; sock.close(); state["closed"] += 1
                if state["sending"]: open_one()

def real(port, count, bearer):
    request = b"GET /v1.1/users/self HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + bearer + b"\r\nConnection: close\r\n\r\n"
    for _ in range(count):
        try:
            answer, seconds = exchange(port, "127.0.0.1", request)
            status = answer.split(b" ")[1].decode() if answer else "none"
        except OSError as error:
            status, seconds = type(error).__name__, 5.0
        print(status, f"{seconds:.6f}", flush=True)
        time.sleep(0.02)

if __name__ == "__main__":
    if sys.argv[1] == "token": print(token(int(sys.argv[2]), sys.argv[3], sys.argv[4]).decode())
    elif sys.argv[1] == "flood": flood(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].encode())
    else: real(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].encode())
PY

cpu_seconds() { awk '{print ($14 + $15) / 100}' "/proc/$1/stat"; }

run() {  # run LABEL [SERVE OPTIONS…]
    local label=$1; shift
    "$hmon" serve --db "$work/hmon.sqlite" --port "$port" "$@" >/dev/null 2>&1 & server=$!
    until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), timeout=1)" 2>/dev/null; do sleep 0.1; done
    local alice mallory
    alice=$(PYTHONPATH="$PWD/Benchmarks" python3 "$work/clients.py" token "$port" 127.0.0.1 alice)
    mallory=$(PYTHONPATH="$PWD/Benchmarks" python3 "$work/clients.py" token "$port" 127.0.0.2 mallory)
    PYTHONPATH="$PWD/Benchmarks" python3 "$work/clients.py" flood "$port" "$pipeliners" "$mallory" > "$work/flood" 2>&1 & flood=$!
    until grep -q "^opened" "$work/flood"; do sleep 0.2; done
    sleep 2  # the pipelines fill
    PYTHONPATH="$PWD/Benchmarks" python3 "$work/clients.py" real "$port" "$requests" "$alice" > "$work/real"
    kill -USR1 "$flood"
    local before after
    before=$(cpu_seconds "$server"); sleep 10; after=$(cpu_seconds "$server")
    kill "$flood"; wait "$flood" 2>/dev/null || true; flood=""
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
    local total ok p50 p99
    total=$(wc -l < "$work/real")
    ok=$(grep -c '^200 ' "$work/real" || true)
    p50=$(awk '{print $2}' "$work/real" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR + 1) / 2)] * 1000}')
    p99=$(awk '{print $2}' "$work/real" | sort -n | awk '{a[NR]=$1} END {i = int(NR * 0.99); if (i < 1) i = 1; printf "%.1f", a[i] * 1000}')
    echo "== $label: $pipeliners pipelining connections from 127.0.0.2 (on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)) =="
    printf '   real requests answered 200: %d of %d (others: %s)\n' "$ok" "$total" \
        "$(grep -v '^200 ' "$work/real" | awk '{print $1}' | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}' | grep . || echo none)"
    awk -v m="$p50" -v p="$p99" 'BEGIN {
        printf "   median %7.1f ms   %6.2f× the aim of 100 ms\n", m, m / 100
        printf "   p99    %7.1f ms   %6.2f× the aim of 100 ms  %s\n", p, p / 100, (p < 100 ? "ok" : "NOT MET") }'
    awk -v b="$before" -v a="$after" 'BEGIN { printf "   server CPU in the 10 s after the pipeliners stopped sending: %.2f s\n", a - b }'
    printf '   pipeliners: %s\n' "$(grep '^sent' "$work/flood" | tail -1)"
}

run "default rate limit"
run "--rate-limit off" --rate-limit off
