#!/usr/bin/env bash
# Start cobol-mcp-server (stdio by default; arguments go to the server: ./run.sh --help).
# On first use it sets itself up: GnuCOBOL (apt-get, when missing and allowed), a virtualenv,
# the package, and the bundled COBOL programs compiled. Set-up output goes to stderr only:
# stdout belongs to the MCP protocol. Once set up, it checks one file and execs the server.
set -euo pipefail
# This script's folder, found without a subshell or `dirname` (two forks and an exec: ~2 ms of every start);
# through a symlink (say ~/bin/cobol-mcp -> checkout/run.sh), the folder of the file it points to.
self="${BASH_SOURCE[0]}"
[[ -L "$self" ]] && self="$(readlink -f -- "$self")"
here="${self%/*}"
[[ "$here" == "$self" || "$here" == . ]] && here="$PWD"
[[ "$here" == /* ]] || here="$PWD/$here"
venv="$here/.venv"
ready="$venv/.cobol-mcp-ready"

# The server is started as `python -S` with the package and the venv's site-packages put on sys.path
# here: the site module (.pth files, the distutils shim) and the console script's `import re` cost more
# start-up time than the server's own imports. Same program, same arguments, same environment.
launch() {
  local site=("$venv"/lib/python3*/site-packages)
  exec "$venv/bin/python" -S -c 'import sys
sys.argv[0] = "cobol-mcp-server"
sys.path[0] = sys.argv.pop(1)  # for -c sys.path[0] is the current folder: never import from there
sys.path.append(sys.argv.pop(1))
from cobol_mcp.cli import main
sys.exit(main())' "$here/src" "${site[0]}" "$@"
}

if [[ -f "$ready" && -z "${COBOL_MCP_SETUP_ONLY:-}" ]] && command -v cobc >/dev/null; then
  launch "$@"
fi

say() { printf 'run.sh: %s\n' "$*" >&2; }

install_help() {
  cat >&2 <<'HELP'
run.sh: GnuCOBOL (cobc) is needed and could not be installed automatically.
  Debian/Ubuntu:  sudo apt-get install gnucobol3     (or gnucobol on older releases)
  Fedora:         sudo dnf install gnucobol
  macOS:          brew install gnucobol
Then run ./run.sh again.
HELP
}

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"; else return 1; fi
}

apt_install() {
  command -v apt-get >/dev/null || return 1
  as_root true || return 1
  say "installing $* with apt-get"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

# The Python the virtualenv is made from: $COBOL_MCP_PYTHON, or else the fastest Python 3.11+ on PATH.
# Builds differ: a distribution's (built with profile-guided optimisation) runs the server's Python 1.3-1.5x
# as fast as a default pyenv build, and every call's protocol and record work is Python. A short loop
# times each (CPU time, best of 3); one must be 10% faster to be taken over an earlier one (newest first).
pick_python() {
  if [[ -n "${COBOL_MCP_PYTHON:-}" ]]; then
    "$COBOL_MCP_PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' </dev/null 2>/dev/null \
      || { say "COBOL_MCP_PYTHON=$COBOL_MCP_PYTHON is not Python 3.11 or newer"; return 1; }
    python="$COBOL_MCP_PYTHON"; return 0
  fi
  local probe='import os, sys, time
if sys.version_info < (3, 11):
    sys.exit(1)
def step(table, text):
    return table.get(text, 0) + len(text.partition(".")[0])
table, best = {"a": 1}, 1e9
for _ in range(3):
    started = time.process_time()
    for _ in range(20000):
        step(table, "12.5")
        step(table, "a")
    best = min(best, time.process_time() - started)
print(int(best * 1e6), os.path.realpath(sys.executable))'
  local candidate took real best="" seen=" " count=0
  python=""
  while IFS= read -r candidate; do
    read -r took real < <("$candidate" -I -S -c "$probe" </dev/null 2>/dev/null) && [[ "$took" =~ ^[0-9]+$ ]] || continue
    [[ "$seen" == *" $real "* ]] && continue  # the same interpreter by another name (python3, a pyenv shim)
    seen+="$real "
    count=$((count + 1))
    if [[ -z "$best" ]] || (( took * 11 < best * 10 )); then python="$candidate" best="$took"; fi
  done < <(type -ap python3.13 python3.12 python3.11 python3)
  (( count > 1 )) && say "using $python, the fastest of $count Pythons 3.11+ on PATH (COBOL_MCP_PYTHON chooses another)"
  return 0
}

if [[ "${COBOL_MCP_SETUP_ONLY:-}" == python ]]; then  # only say which Python set-up would use
  python=""; pick_python || exit 1; [[ -z "$python" ]] || printf '%s\n' "$python"; exit 0
fi

{
  pick_python || exit 1
  if ! command -v cobc >/dev/null || ! command -v gcc >/dev/null; then
    apt_install gnucobol3 gcc || { install_help; exit 1; }
  fi
  if [[ -z "$python" ]]; then
    apt_install python3 python3-venv || { say "Python 3.11 or newer is needed (apt-get install python3 python3-venv)"; exit 1; }
    python="$(command -v python3)"
  fi
  if [[ ! -x "$venv/bin/python" ]]; then
    say "creating the virtualenv in $venv"
    if ! "$python" -m venv "$venv" >&2; then
      rm -rf "$venv"
      apt_install python3-venv && "$python" -m venv "$venv" >&2 || { say "could not create a virtualenv (apt-get install python3-venv)"; exit 1; }
    fi
  fi
  extras="${COBOL_MCP_EXTRAS:-http,watch}"  # uvicorn for --transport http, watchfiles for --watch; stdio needs neither
  say "installing cobol-mcp-server${extras:+ with [$extras]} into $venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$here${extras:+[$extras]}" >&2
  "$venv/bin/python" -m compileall -q "$here/src/cobol_mcp" >&2  # start-up reads bytecode, never compiles
  say "compiling the bundled COBOL programs"
  "$venv/bin/cobol-mcp-server" check --log-level warning >/dev/null
  touch "$ready"
} 1>&2

[[ -n "${COBOL_MCP_SETUP_ONLY:-}" ]] && exit 0
launch "$@"
