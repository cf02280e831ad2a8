#!/usr/bin/env bash
# Runs every shell example in the documentation, so that none can drift from what hmon does.
#
#   Tests/DocExamples/run-doc-examples.sh HMON_BINARY [FILE.md ...]
#
# FILE.md defaults to README.md and docs/*.md of the repository this script sits in. A shell example is a
# fenced block whose info string is exactly `sh` (```sh); blocks fenced `text`, `console`, `toml` or
# anything else are pictures and output, and are not run. Each example runs with `bash -euo pipefail`:
#
#   - HOME a fresh temporary folder, with XDG_DATA_HOME=$HOME/.local/share and
#     XDG_CONFIG_HOME=$HOME/.config, so nothing of yours is read or written;
#   - PATH a temporary bin folder holding `hmon` (a link to HMON_BINARY), then this script's own PATH;
#     LANG=C.UTF-8, and no other variable of yours (HMON_DB, HMON_SERVER, … are unset); TZ is kept;
#     HMON_SERVER_WAIT=60 (a remote command's patience: under `swift test` the examples' server shares two
#     cores with the whole run, where the default 10 s was once too short);
#   - the working directory a fresh temporary folder holding a copy of the repository's Themes/ and, as
#     `.build/release/hmon`, a link to HMON_BINARY standing in for the release build (for the install
#     example);
#   - standard input /dev/null, and a time limit (DOC_EXAMPLES_TIMEOUT seconds, 120 unless set);
#   - in a process group of its own: whatever it leaves running in the background (`hmon serve … &`) is
#     stopped when the example ends (or, with `# continues` below, when the last example continuing it ends).
#
# The first line of an example may be a marker, a comment a reader can read as it is:
#
#   # continues            the same session as the example before it in the file: the same HOME, working
#                          directory and shell variables (and exported ones), with what it started in the
#                          background still running. When the example before did not run, it starts afresh.
#   # ci: install          installs system packages or builds the release binary: skipped unless
#                          DOC_EXAMPLES_INSTALL is set (.ci/run sets it). Then it runs in the repository
#                          root, with `sudo ` dropped when running as root or without sudo, with
#                          DEBIAN_FRONTEND=noninteractive and a limit of an hour.
#   # not run: REASON      cannot run in a batch (the dashboard itself, `swift test`): listed as skipped.
#
# Prints a line per example, LINE being the line of its opening fence: `ok FILE:LINE` (with
# DOC_EXAMPLES_VERBOSE set, its output after it), `FAIL FILE:LINE` and the last 40 lines of its output, or
# `skip FILE:LINE (reason)`; then `N passed, N failed, N skipped`. Exits 1 when one failed, 2 on a usage
# mistake. Plain bash 3.2 or later, awk, sed and env: it runs on macOS as on Linux.
set -uo pipefail

usage() { echo "usage: $0 HMON_BINARY [FILE.md ...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
case $1 in /*) binary=$1 ;; *) binary=$PWD/$1 ;; esac
shift
[ -f "$binary" ] && [ -x "$binary" ] || { echo "$0: $binary is not an executable file" >&2; exit 2; }
if [ $# -eq 0 ]; then
    set -- "$root/README.md" "$root"/docs/*.md
fi
limit=${DOC_EXAMPLES_TIMEOUT:-120}

work=$(mktemp -d "${TMPDIR:-/tmp}/hmon-doc-examples.XXXXXX")
mkdir -p "$work/bin"
ln -s "$binary" "$work/bin/hmon"

# The server examples listen on 127.0.0.1:8080: say so at once when something else already does.
if command -v curl > /dev/null 2>&1 && curl -s -o /dev/null --max-time 2 http://127.0.0.1:8080/; then
    echo "note: something already answers on 127.0.0.1:8080, so the examples that serve there will fail"
fi

passed=0 failed=0 skipped=0 examples=0
session=""          # the folder of the running session (home, dir, state, groups), empty when none
sessions=0

# Stops what a session left running (each example's process group) and removes its folders.
end_session() {
    [ -n "$session" ] || return 0
    local group groups=() waited
    while read -r group; do groups+=("$group"); done < "$session/groups"
    for group in "${groups[@]+"${groups[@]}"}"; do kill -TERM -- "-$group" 2>/dev/null; done
    for group in "${groups[@]+"${groups[@]}"}"; do
        waited=0
        while kill -0 -- "-$group" 2>/dev/null && [ $waited -lt 50 ]; do sleep 0.1; waited=$((waited + 1)); done
        kill -KILL -- "-$group" 2>/dev/null
    done
    rm -rf "$session"
    session=""
}
trap 'end_session; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

new_session() {
    end_session
    sessions=$((sessions + 1))
    session="$work/session-$sessions"
    mkdir -p "$session/home/.local/share" "$session/home/.config" "$session/dir/.build/release" "$session/tmp"
    cp -R "$root/Themes" "$session/dir/Themes"
    ln -s "$binary" "$session/dir/.build/release/hmon"
    echo "$session/dir" > "$session/cwd"
    : > "$session/state" ; : > "$session/groups"
}

# The shell each example runs in: the session's variables and directory, the example, then what it set.
cat > "$work/shell.sh" <<'EOF'
# $1 the session folder, $2 the example. Runs under `bash -euo pipefail`.
__session=$1 __example=$2
source "$__session/state"
cd "$(cat "$__session/cwd")"
source "$__example"
__status=$?
pwd > "$__session/cwd"
{
    # The variables the example made or changed, for an example that continues it.
    for __name in $(compgen -v | sort); do
        case $__name in
            __*|BASH*|FUNCNAME|GROUPS|DIRSTACK|PIPESTATUS|LINENO|RANDOM|SECONDS|SRANDOM|EPOCH*|SHLVL|PWD|OLDPWD|_|COLUMNS|LINES|PPID|UID|EUID|SHELLOPTS|HISTCMD|OPTIND|OPTARG|IFS|PS4) continue ;;
        esac
        declare -p "$__name" 2>/dev/null | sed 's/^declare -[a-zA-Z]*r[a-zA-Z]* .*//'
    done
    declare -f
} > "$__session/state.new" && mv "$__session/state.new" "$__session/state"
exit $__status
EOF

# Runs one example (its text in $1) in the current session; $2 the working directory (empty: the
# session's), $3 the time limit; extra environment after that. Sets $status and leaves the output in $log.
run_example() {
    local example=$1 directory=$2 seconds=$3; shift 3
    examples=$((examples + 1))
    log="$session/output-$examples"   # one each: what a continued example left running writes to its own
    [ -z "$directory" ] || echo "$directory" > "$session/cwd"
    printf '%s\n' "$example" > "$session/example.sh"
    env -i HOME="$session/home" XDG_DATA_HOME="$session/home/.local/share" \
        XDG_CONFIG_HOME="$session/home/.config" PATH="$work/bin:$PATH" LANG=C.UTF-8 TMPDIR="$session/tmp" \
        HMON_SERVER_WAIT=60 \
        ${TZ+TZ="$TZ"} "$@" \
        bash -c 'set -m; bash -euo pipefail "$1" "$2" "$3" < /dev/null > "$4" 2>&1 & echo $! >> "$2/groups"; wait $!' \
        _ "$work/shell.sh" "$session" "$session/example.sh" "$log" 2> /dev/null &
    local runner=$! elapsed=0 group
    while kill -0 $runner 2>/dev/null; do
        if [ $elapsed -ge $((seconds * 10)) ]; then
            group=$(tail -n 1 "$session/groups")
            kill -TERM -- "-$group" 2>/dev/null; sleep 2; kill -KILL -- "-$group" 2>/dev/null
            echo "(stopped after ${seconds} s)" >> "$log"
            break
        fi
        sleep 0.1
        elapsed=$((elapsed + 1))
    done
    wait $runner
    status=$?
}

report() {  # name status
    if [ "$2" -eq 0 ]; then
        echo "ok $1"
        [ -z "${DOC_EXAMPLES_VERBOSE:-}" ] || sed 's/^/    /' "$log"
        passed=$((passed + 1))
    else
        echo "FAIL $1 (exit $2)"
        tail -n 40 "$log" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

for file in "$@"; do
    case $file in "$root"/*) name=${file#"$root"/} ;; *) name=$file ;; esac
    if [ ! -f "$file" ]; then
        echo "FAIL $name (no such file)"
        failed=$((failed + 1))
        continue
    fi
    end_session
    # Each example into a file of its own; awk prints its fence's line and the file (or `unclosed LINE`).
    rm -rf "$work/examples" && mkdir "$work/examples"
    while IFS=$'\t' read -r line path; do
        where="$name:$line"
        if [ "$line" = unclosed ]; then
            echo "FAIL $name:$path (a \`\`\`sh block that is never closed)"
            failed=$((failed + 1))
            continue
        fi
        example=$(cat "$path")
        first=${example%%$'\n'*}
        case $first in
            "# not run:"*)
                echo "skip $where (${first#"# not run:"})" | sed 's/(  */(/'
                skipped=$((skipped + 1))
                end_session
                ;;
            "# ci: install"*)
                if [ -z "${DOC_EXAMPLES_INSTALL:-}" ]; then
                    echo "skip $where (install example: run by .ci/run with DOC_EXAMPLES_INSTALL=1)"
                    skipped=$((skipped + 1))
                    end_session
                    continue
                fi
                if [ "$(id -u)" = 0 ] || ! command -v sudo > /dev/null 2>&1; then
                    example=$(printf '%s\n' "$example" | sed -E 's/(^|[;&|(]|[[:space:]])sudo[[:space:]]+/\1/g')
                fi
                new_session
                run_example "$example" "$root" 3600 DEBIAN_FRONTEND=noninteractive
                report "$where" "$status"
                ;;
            "# continues"*)
                [ -n "$session" ] || new_session
                run_example "$example" "" "$limit"
                report "$where" "$status"
                ;;
            *)
                new_session
                run_example "$example" "" "$limit"
                report "$where" "$status"
                ;;
        esac
        # A failed example's session is not continued: what continues it would fail for the same reason.
        [ "${status:-0}" -eq 0 ] || end_session
        status=0
    done < <(awk -v folder="$work/examples" '
        inside && $0 ~ "^" indent "```[[:space:]]*$" { close(out); print start "\t" out; inside = 0; next }
        inside { line = $0; if (substr(line, 1, length(indent)) == indent) line = substr(line, length(indent) + 1)
                 print line > out; next }
        other { if ($0 ~ /^[[:space:]]*```[[:space:]]*$/) other = 0; next }
        /^[[:space:]]*```sh[[:space:]]*$/ { inside = 1; start = NR; out = folder "/" NR ".sh"; printf "" > out
                                           indent = $0; sub(/```.*/, "", indent); next }
        /^[[:space:]]*```/ { other = 1 }
        END { if (inside) print "unclosed\t" start }
    ' "$file")
done
end_session

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
