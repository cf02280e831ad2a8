#!/usr/bin/env bash
# Real sign-ins while password guessers run: 6 guessers, each from an address of its own (127.0.0.11–16),
# post wrong passwords for made-up names to `hmon serve`'s sign-in form as fast as they are answered,
# while a real user signs in with the right password every 0.5 s from 127.0.0.9. Prints how many real
# sign-ins succeeded, their median and p99, and how many guesses were checked, throttled or refused;
# the aim: every real sign-in succeeds, p99 under 500 ms. Run once with the server's default rate limit
# and once with `--rate-limit off`. Password hashes at the server's real cost (scrypt).
#
#   Benchmarks/sign-in-under-guessing.sh [--seconds 30] [--port 18090] [--scratch-path DIR (default .build-release)]
#
# Public tools only: curl (installed with apt-get when missing) and hmon itself, built in release.
# HMON_BENCH_BIN=DIR measures the hmon already built in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30
port=18090
scratch=(--scratch-path .build-release)
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --scratch-path) scratch=(--scratch-path "$2"); shift 2 ;;
        *) echo "sign-in-under-guessing: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
command -v curl >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq curl >/dev/null; }

if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    echo "sign-in-under-guessing: building hmon (release)…"
    swift build -c release --static-swift-stdlib "${scratch[@]}" --product hmon >/dev/null
    bin=$(swift build -c release --static-swift-stdlib "${scratch[@]}" --show-bin-path)
fi

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config
echo 'correct horse battery' | "$bin/hmon" user add alice --password-stdin --db "$work/hmon.sqlite" >/dev/null

form() {  # form NAME PASSWORD: the sign-in form's body
    printf 'client_id=hmon&response_type=token&redirect_uri=hmon%%3A%%2F%%2Fsigned-in&username=%s&password=%s' "$1" "$2"
}

run() {  # run LABEL [SERVE OPTIONS…]
    local label=$1; shift
    "$bin/hmon" serve --db "$work/hmon.sqlite" --port "$port" "$@" >/dev/null 2>&1 & server=$!
    until curl -s -o /dev/null "http://127.0.0.1:$port/"; do sleep 0.1; done
    local end=$((SECONDS + seconds)) guessers=()
    for g in 1 2 3 4 5 6; do
        ( n=0; while [ $SECONDS -lt $end ]; do
              n=$((n + 1))
              curl -s -o /dev/null -w '%{http_code}\n' --interface "127.0.0.1$g" --data "$(form "spray-$g-$n" "guess-$n")" \
                  "http://127.0.0.1:$port/authorize" || true
          done > "$work/guesses-$g" ) &
        guessers+=($!)
    done
    : > "$work/real"
    while [ $SECONDS -lt $end ]; do
        curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --interface 127.0.0.9 \
            --data "$(form alice 'correct%20horse%20battery')" "http://127.0.0.1:$port/authorize" >> "$work/real" || true
        sleep 0.5
    done
    wait "${guessers[@]}" 2>/dev/null || true
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
    local total ok p50 p99
    total=$(wc -l < "$work/real")
    ok=$(grep -c '^302 ' "$work/real" || true)
    p50=$(awk '{print $2}' "$work/real" | sort -n | awk '{a[NR]=$1} END {print int(a[int((NR + 1) / 2)] * 1000)}')
    p99=$(awk '{print $2}' "$work/real" | sort -n | awk '{a[NR]=$1} END {i = int(NR * 0.99); if (i < 1) i = 1; print int(a[i] * 1000)}')
    printf '%-22s real sign-ins %d of %d succeeded, median %d ms, p99 %d ms (aim: all, under 500 ms): %s\n' \
        "$label" "$ok" "$total" "$p50" "$p99" "$([ "$ok" -eq "$total" ] && [ "$p99" -lt 500 ] && echo ok || echo NOT MET)"
    printf '%-22s guesses answered: %s\n' "" "$(cat "$work"/guesses-* | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}')"
}

run "default rate limit"
run "--rate-limit off" --rate-limit off
