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

{
  if ! command -v cobc >/dev/null || ! command -v gcc >/dev/null; then
    apt_install gnucobol3 gcc || { install_help; exit 1; }
  fi
  python=""
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      python="$(command -v "$candidate")"; break
    fi
  done
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
