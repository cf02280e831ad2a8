#!/usr/bin/env bash
# Installs the clients hmon did not write, which the third-party client suites drive against `hmon serve`
# (Tests/HealthServerTests/ThirdPartyClientTests.swift runs sami_client.py and exist_io_client.py, and
# MCPClientTests.swift mcp_client.py against `hmon mcp`; GarminFITReferenceTests.swift decodes the FIT
# fixtures with Garmin's SDK), into a
# private Python environment, exactly at the versions of requirements.txt:
#
#   Tests/ThirdPartyClients/install.sh [VENV_DIR]     # default: .build/third-party-clients in the package
#
# Run again, it does nothing while the environment holds what requirements.txt says. Needs python3 with its
# venv module (Debian: apt-get install python3-venv) and a package index pip can reach. When it fails, no
# environment is left behind, so the suites show as skipped instead of failing on a half-made one.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${1:-$root/.build/third-party-clients}
requirements=$here/requirements.txt
stamp=$venv/requirements.installed   # the requirements.txt this environment was made from

fail() { echo "install.sh: $*" >&2; exit 1; }

command -v python3 >/dev/null 2>&1 || fail "python3 is not installed (Debian: apt-get install python3 python3-venv)"
# Debian splits venv's pip bootstrap (ensurepip) into python3-venv: without it `python3 -m venv` fails.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 ||
    fail "python3 cannot make environments: its venv module or ensurepip is missing (Debian: apt-get install python3-venv)"

if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$stamp" "$requirements"; then
    exit 0   # already made from this requirements.txt
fi
if [ -e "$venv" ] && [ ! -f "$venv/pyvenv.cfg" ]; then
    fail "$venv exists and is not a Python environment: not touching it"
fi

# From here on, a failure removes the environment being made.
trap 'rm -rf "$venv"; echo "install.sh: failed; removed $venv" >&2' ERR

echo "install.sh: making $venv (the third-party client suites' Python environment)"
python3 -m venv --clear "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check --no-input --quiet)
# --no-deps: requirements.txt pins every package, the ones the clients pull in too; `pip check` then proves
# the set complete and consistent.
"${pip[@]}" install --no-deps --requirement "$requirements" ||
    { echo "install.sh: pip could not install $requirements (is a package index reachable?)" >&2; false; }
"$venv/bin/python" -m pip check >/dev/null ||
    { "$venv/bin/python" -m pip check >&2 || true; echo "install.sh: requirements.txt is missing a package" >&2; false; }
"$venv/bin/python" -c 'import artikcloud, exist_client, requests_oauthlib, mcp, fit_tool, garmin_fit_sdk' ||
    { echo "install.sh: the clients do not import" >&2; false; }
cp "$requirements" "$stamp"
trap - ERR
echo "install.sh: ready: $venv/bin/python"
