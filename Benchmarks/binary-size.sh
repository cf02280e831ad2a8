#!/usr/bin/env bash
# How big `hmon` is as the README installs it (release, static Swift runtime, stripped), and what it is
# made of: the ELF sections (`size -A`), and the symbols' bytes by the module or library they come from
# (`nm -S`: Swift symbols by the module in their mangled name, C libraries by their prefixes).
#
#   Benchmarks/binary-size.sh [--top N]   (default 25 modules)
#
# Prints the stripped size against its ceiling (half of 87 MB). Needs binutils (nm, size, strip) and python3. Builds hmon in release mode as the README installs it;
# HMON_BENCH_BIN=DIR measures the hmon already built in DIR instead.
set -euo pipefail
cd "$(dirname "$0")/.."
top=25
[ "${1:-}" = "--top" ] && top=$2

source Benchmarks/release-hmon.sh
hmon=$(release_hmon)
work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-size.XXXXXX")
trap 'rm -rf "$work"' EXIT
strip -o "$work/hmon" "$hmon"

mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
echo "hmon as built: $(mb "$(stat -c %s "$hmon")"); stripped (as installed with install -s): $(mb "$(stat -c %s "$work/hmon")")"
# The aim: at most half of the 87 MB the stripped binary was when it was set.
awk -v b="$(stat -c %s "$work/hmon")" 'BEGIN { r = b / 87e6
    printf "%-40s %5.2f   (ceiling 0.50)  %s\n", "stripped size / 87 MB", r, (r <= 0.5 ? "ok" : "ABOVE CEILING") }'
echo
echo "== sections of the stripped binary (bytes)"
size -A "$work/hmon" | awk 'NR > 2 && $2 > 100000 { printf "  %-22s %12d  %6.1f MB\n", $1, $2, $2 / 1e6 }'
echo
echo "== symbol bytes by where they come from (unstripped binary; text and data together; top $top)"
nm -S --size-sort "$hmon" | python3 -c '
import re, sys, collections
top = int(sys.argv[1])
totals = collections.Counter()
prefixes = [("sqlite3", "SQLite (C)"), ("CCryptoBoringSSL", "BoringSSL (C, swift-crypto)"), ("c_nio_", "SwiftNIO (C)"),
            ("icudt", "ICU data"), ("u_", "ICU (C++)"), ("ucol_", "ICU (C++)"), ("uloc_", "ICU (C++)"), ("ures_", "ICU (C++)"),
            ("_ZN6icu_", "ICU (C++)"), ("_ZNK6icu_", "ICU (C++)"), ("_ZN3icu", "ICU (C++)"), ("deflate", "zlib (C)"), ("inflate", "zlib (C)"),
            ("_Z", "other C++ (libc++, ICU)")]
def module(name):
    if name.startswith(("$s", "_$s", "$S")):
        body = name.lstrip("_")[2:]
        if body.startswith(("s", "S")): return "Swift standard library"
        m = re.match(r"(\d+)", body)
        if m:
            length = int(m.group(1))
            return body[len(m.group(1)):len(m.group(1)) + length]
        return "Swift (other)"
    for prefix, label in prefixes:
        if name.startswith(prefix): return label
    if re.search(r"_7\d$", name): return "ICU (C++)"
    return "C and other"
for line in sys.stdin:
    parts = line.split()
    if len(parts) < 4: continue
    totals[module(parts[3])] += int(parts[1], 16)
total = sum(totals.values())
for name, size in totals.most_common(top):
    print("  %-40s %7.1f MB  %5.1f %%" % (name, size / 1e6, size / total * 100))
print("  %-40s %7.1f MB" % ("all symbols", total / 1e6))
' "$top"
