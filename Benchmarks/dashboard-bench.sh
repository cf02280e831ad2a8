#!/usr/bin/env bash
# The dashboard's figures, release build, demo store plus 1,000,000 extra readings:
#   launch to first full frame (the real binary in tmux, --exit-after-first-frame, median of 20),
#   R to redrawn frame (in process, hmon-bench dashboard), resident memory, and over one idle minute
#   the CPU used and the bytes written to the terminal (tmux pipe-pane sees every byte hmon writes).
# Needs tmux. Usage: Benchmarks/dashboard-bench.sh [READINGS]
# HMON_BENCH_BIN=DIR measures the hmon and hmon-bench already built in DIR (another commit, for an A/B).
set -euo pipefail
cd "$(dirname "$0")/.."
readings=${1:-1000000}

build=(swift build -c release --static-swift-stdlib --scratch-path .build-release)
if [ -n "${HMON_BENCH_BIN:-}" ]; then
    bin=$HMON_BENCH_BIN
else
    "${build[@]}" --product hmon >/dev/null
    "${build[@]}" --product hmon-bench >/dev/null
    bin=$("${build[@]}" --show-bin-path)
fi
dir=$(mktemp -d /tmp/hmon-dashboard-bench.XXXXXX)
socket="hmon-bench-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT

"$bin/hmon-bench" dashboard --prepare "$dir" --readings "$readings"
db="$dir/data/hmon/demo.sqlite"
env_args=(-e "XDG_DATA_HOME=$dir/data" -e "XDG_CONFIG_HOME=$dir/config" -e "TERM=xterm-256color" -e "LANG=C.UTF-8")

tmux -L "$socket" -f /dev/null new-session -d -x 100 -y 30 "${env_args[@]}" -c "$dir" \
    "env -u TMUX PS1='bench$ ' bash --norc --noprofile"
wait_for() {  # wait_for TEXT: poll the screen until it shows TEXT (at most 60 s)
    for _ in $(seq 1200); do
        tmux -L "$socket" capture-pane -p | grep -qF -- "$1" && return 0
        sleep 0.05
    done
    echo "timed out waiting for: $1" >&2; tmux -L "$socket" capture-pane -p >&2; exit 1
}
wait_for 'bench$'

echo "== launch to first full frame (signed in, devices screen), 20 runs"
tmux -L "$socket" send-keys -l "for i in \$(seq 20); do s=\$(date +%s%N); $bin/hmon --demo --exit-after-first-frame; e=\$(date +%s%N); echo \$(( (e - s) / 1000 )) >> launch-us; done; clear; echo LAUNCHES-\"\"DONE"
tmux -L "$socket" send-keys Enter
wait_for LAUNCHES-DONE
sort -n "$dir/launch-us" | awk '{ v[NR] = $1 } END { printf "median %.1f ms   min %.1f ms   max %.1f ms\n", v[int((NR + 1) / 2)] / 1000, v[1] / 1000, v[NR] / 1000 }'

echo "== R to redrawn frame (in process, 100x30)"
"$bin/hmon-bench" dashboard --db "$db" --iterations 200

echo "== resident memory, idle CPU and bytes written to the terminal (weights screen open, 60 s idle)"
tmux -L "$socket" send-keys -l "$bin/hmon --demo"
tmux -L "$socket" send-keys Enter
wait_for 'See weight'
tmux -L "$socket" send-keys 2
wait_for 'Weight in kg'
sleep 2
pid=$(pgrep -n -f "$bin/hmon --demo")
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
rss=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status")
tmux -L "$socket" pipe-pane -o "cat >> '$dir/idle-output'"
before=$(ticks); sleep 60; after=$(ticks)
tmux -L "$socket" pipe-pane
hz=$(getconf CLK_TCK)
awk -v kib="$rss" 'BEGIN { printf "resident memory: %.1f MiB (%d KiB, %.1f MB)\n", kib / 1024, kib, kib * 1.024 / 1000 }'
awk -v d=$((after - before)) -v hz="$hz" 'BEGIN { printf "idle CPU over 60 s: %.2f%% (%d ticks of 1/%d s)\n", d / hz / 60 * 100, d, hz }'
echo "bytes written to the terminal in the idle minute: $(stat -c %s "$dir/idle-output" 2>/dev/null || echo 0)"
tmux -L "$socket" send-keys q
