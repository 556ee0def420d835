#!/usr/bin/env bash
# Run the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against one
# HTTP server (with the fixture programs of tests/conformance/programs and --expose-source) twice:
# the active suite on the 2025-11-25 wire (initialize handshake, sessions), then every scenario that
# applies to 2026-07-28 on its stateless wire (per-request _meta, routing headers, no session).
#
#   tests/conformance/run.sh                 # exit status: 0 when both runs are as expected
#   PYTHON=.venv/bin/python tests/conformance/run.sh
#
# It needs npm (to fetch the suite and, when the system Node is older than 22, a Node 22 binary
# from the npm package node-linux-<arch>@22) and a Python with this package and uvicorn. Both
# downloads are cached in ${COBOL_MCP_CONFORMANCE_CACHE:-~/.cache/cobol-mcp-server/conformance}.
# Scenarios (or single checks) for features the server does not offer are listed, with the reason,
# in expected-failures.yml (2025-11-25) and expected-failures-2026.yml; the scenarios in REQUIRED_*
# must pass and may never be listed there.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
suite_pkg="@modelcontextprotocol/conformance@0.2.0-alpha.11"
REQUIRED_2025=(server-initialize ping tools-list dns-rebinding-protection server-sse-multiple-streams
               tools-call-simple-text tools-call-error tools-call-with-progress resources-list)
REQUIRED_2026=(tools-list tools-call-simple-text tools-call-error tools-call-with-progress dns-rebinding-protection
               server-sse-multiple-streams resources-list sep-2164-resource-not-found http-header-validation)
cache="${COBOL_MCP_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cobol-mcp-server/conformance}"
python="${PYTHON:-}"
if [[ -z "$python" ]]; then
  if [[ -x "$root/.venv/bin/python" ]]; then python="$root/.venv/bin/python"; else python="python3"; fi
fi
expected_2025="$here/expected-failures.yml"
expected_2026="$here/expected-failures-2026.yml"

say() { printf 'conformance: %s\n' "$*" >&2; }

not_listed() {  # not_listed FILE SCENARIO...: none of them is excused, wholesale or check by check
  local file="$1"; shift
  for scenario in "$@"; do
    if grep -Eq "^[[:space:]]*-[[:space:]]*${scenario}([[:space:]:#]|$)" "$file"; then
      say "$scenario must pass; it may not be listed in $(basename "$file")"; exit 1
    fi
  done
}
not_listed "$expected_2025" "${REQUIRED_2025[@]}"
not_listed "$expected_2026" "${REQUIRED_2026[@]}"

command -v npm >/dev/null || { say "npm is needed (apt-get install npm)"; exit 1; }
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9 2>/dev/null || true  # one installer at a time; the cache is shared

# --- Node >= 22: the system one if recent enough, else the npm package's binary
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
node="$(command -v node || true)"
if [[ -z "$node" || "$(node_major "$node")" -lt 22 ]]; then
  case "$(uname -m)" in
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) say "no Node 22 package for $(uname -m); install Node 22 or newer"; exit 1 ;;
  esac
  node="$cache/node22/node_modules/node-linux-$arch/bin/node"
  if [[ ! -x "$node" ]]; then
    say "fetching Node 22 (npm package node-linux-$arch@22)"
    npm install --prefix "$cache/node22" --no-audit --no-fund --loglevel=error "node-linux-$arch@22" >&2
  fi
fi
[[ "$(node_major "$node")" -ge 22 ]] || { say "$node is not Node 22 or newer"; exit 1; }

# --- the pinned suite, installed with that Node first on PATH
suite="$cache/suite/node_modules/@modelcontextprotocol/conformance"
if [[ "$(cat "$suite/.pinned" 2>/dev/null || true)" != "$suite_pkg" ]]; then
  say "installing $suite_pkg"
  PATH="$(dirname "$node"):$PATH" npm install --prefix "$cache/suite" --no-audit --no-fund --loglevel=error \
    "$suite_pkg" >&2
  echo "$suite_pkg" >"$suite/.pinned"
fi
exec 9>&-

# --- our server on a free loopback port
port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
log="$(mktemp)"
PYTHONPATH="$root/src${PYTHONPATH:+:$PYTHONPATH}" "$python" -m cobol_mcp --transport http --host 127.0.0.1 \
  --port "$port" --programs "$here/programs" --expose-source --log-level warning 2>"$log" &
server=$!
stop() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"; }
trap stop EXIT
if ! "$python" - "$port" "$server" <<'PY'; then
import os, sys, time, urllib.request
port, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit(1)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
            sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
PY
  say "the server did not start:"; cat "$log" >&2; exit 1
fi

# --- the suite, once per wire
status=0
run_suite() {  # run_suite SUITE SPEC_VERSION EXPECTED_FAILURES REQUIRED...
  local suite_name="$1" spec="$2" expected="$3" out result=0; shift 3
  out="$(mktemp)"
  say "$suite_name suite at $spec"
  "$node" "$suite/dist/index.js" server --url "http://127.0.0.1:$port/mcp" --suite "$suite_name" \
    --spec-version "$spec" --expected-failures "$expected" 2>&1 | tee "$out" || result=$?
  for scenario in "$@"; do
    if ! grep -q "✓ ${scenario}:" "$out"; then
      say "required scenario $scenario did not pass at $spec"; result=1
    fi
  done
  rm -f "$out"
  [[ $result -eq 0 ]] || { say "the $spec run failed"; status=1; }
}
run_suite active 2025-11-25 "$expected_2025" "${REQUIRED_2025[@]}"
run_suite all 2026-07-28 "$expected_2026" "${REQUIRED_2026[@]}"
if [[ $status -ne 0 && -s "$log" ]]; then
  say "server stderr:"; cat "$log" >&2
fi
exit "$status"
