#!/usr/bin/env bash
# The bytes a reading takes in the SQLite store, against the same readings laid out as schema 19 kept them
# (the four ids as 32–34 characters of hex text), in the same run:
#   A  hmon import of a generated Apple Health export.zip into an empty store (ids as bytes, schema 20);
#   B  the same rows copied by sqlite3 into a table of schema 19's shape: the ids turned back into their
#      hex text, the same primary key and the same three indexes.
# Both files are vacuumed, then measured whole and per table and index (SQLite's dbstat). Prints bytes per
# reading, and the ratio A/B against its ceiling of 0.70 (the store at least 30 % smaller).
#
#   Benchmarks/store-size.sh [SIZE]     SIZE of export.xml (default 40M)
#
# Needs python3 and sqlite3 (Debian: apt-get install -y sqlite3). Builds hmon in release mode as the README
# installs it; HMON_BENCH_BIN=DIR measures the hmon already built in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-40M}
command -v sqlite3 >/dev/null || { echo "store-size: needs sqlite3 (apt-get install -y sqlite3)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-store-size.XXXXXX")
trap 'rm -rf "$work"' EXIT
source Benchmarks/release-hmon.sh
hmon=$(release_hmon)
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"

echo "store-size: generating a $size export.xml in an export.zip ..."
python3 Benchmarks/gen-apple-health.py "$work/export.zip" "$size" --zip >/dev/null
store=$work/hmon.sqlite
echo bench-password | HMON_DB="$store" "$hmon" user add bench --password-stdin >/dev/null
HMON_DB="$store" "$hmon" import "$work/export.zip" --user bench --quiet

# An id's text from its stored bytes, as BinaryID.decode gives it for the forms an import writes.
text() { echo "CASE WHEN length($1) = 17 THEN 'dt' || lower(hex(substr($1, 2))) ELSE lower(hex($1)) END"; }
old=$work/schema19.sqlite
sqlite3 "$old" <<SQL
ATTACH '$store' AS new;
CREATE TABLE messages (
    mid TEXT NOT NULL PRIMARY KEY, sdid TEXT NOT NULL, sdtid TEXT NOT NULL, uid TEXT NOT NULL,
    ts INTEGER NOT NULL, cts INTEGER NOT NULL, mv INTEGER NOT NULL DEFAULT 1, data TEXT NOT NULL,
    weight REAL, active_energy REAL, calories REAL, basal_energy REAL
);
INSERT INTO messages (rowid, mid, sdid, sdtid, uid, ts, cts, mv, data, weight, active_energy, calories, basal_energy)
    SELECT rowid, $(text mid), $(text sdid), $(text sdtid), $(text uid), ts, cts, mv, data,
           weight, active_energy, calories, basal_energy
    FROM new.messages ORDER BY rowid;
CREATE INDEX messages_by_device ON messages(sdid, ts, mid);
CREATE INDEX messages_by_user_time ON messages(uid, ts, active_energy, calories, basal_energy);
CREATE INDEX messages_weights ON messages(uid, ts, weight) WHERE weight IS NOT NULL;
SQL
sqlite3 "$store" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;" >/dev/null
sqlite3 "$old" "VACUUM;"

readings=$(sqlite3 "$store" "SELECT count(*) FROM messages")
# The readings' table and its indexes (the primary key's is sqlite_autoindex_messages_1), in bytes.
ofReadings="name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'messages')"
parts() { sqlite3 "$1" "SELECT name, sum(pgsize) FROM dbstat WHERE $ofReadings GROUP BY name ORDER BY name"; }
readings_bytes() { sqlite3 "$1" "SELECT sum(pgsize) FROM dbstat WHERE $ofReadings"; }
echo
echo "== $readings readings"
printf "%-32s %14s %14s\n" "" "schema 19 (B)" "schema 20 (A)"
join -t'|' <(parts "$old" | sort) <(parts "$store" | sort) | while IFS='|' read -r name before after; do
    awk -v n="$name" -v b="$before" -v a="$after" 'BEGIN { printf "%-32s %11.2f MB %11.2f MB\n", n, b / 1e6, a / 1e6 }'
done
a=$(readings_bytes "$store"); b=$(readings_bytes "$old")
awk -v a="$a" -v b="$b" -v n="$readings" 'BEGIN {
    printf "%-32s %11.1f B  %11.1f B\n", "bytes a reading (table + indexes)", b / n, a / n
    r = a / b
    printf "%-40s %5.2f   (ceiling 0.70)  %s\n", "readings'"'"' bytes, schema 20 / schema 19", r, (r <= 0.70 ? "ok" : "ABOVE CEILING")
}'
awk -v a="$(stat -c %s "$store")" -v n="$readings" \
    'BEGIN { printf "%-40s %5.1f MB (%.0f B a reading, accounts and device types included)\n", "the whole store file", a / 1e6, a / n }'
