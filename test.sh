#!/usr/bin/env bash
# Run the test suite: sets up like ./run.sh (plus the test dependencies), then runs pytest.
# Arguments go to pytest (./test.sh -k stdio).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
COBOL_MCP_SETUP_ONLY=1 COBOL_MCP_EXTRAS=http,test "$here/run.sh"

# Real parts the tests drive, from Debian's packages, installed like run.sh installs GnuCOBOL (apt-get, as root
# or with passwordless sudo, output on stderr); without them the tests that need them skip, saying why:
# nginx in front of replicas (tests/deploy), PostgreSQL for throwaway clusters (tests/db and the SQL tests).
missing=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null || missing+=(postgresql)
if ((${#missing[@]})); then
  if command -v apt-get >/dev/null && { [[ $(id -u) -eq 0 ]] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; }; then
    root=(); [[ $(id -u) -eq 0 ]] || root=(sudo -n)
    printf 'test.sh: installing %s with apt-get (for the tests that drive them)\n' "${missing[*]}" >&2
    { "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq || true
      "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 \
      || printf 'test.sh: %s could not be installed: the tests that need them will skip\n' "${missing[*]}" >&2
  else
    printf 'test.sh: %s missing and cannot be installed here (not root, no passwordless sudo): the tests that need them will skip\n' "${missing[*]}" >&2
  fi
fi

# pyproject.toml's addopts already has -q: a -q given here as well would make it -qq, which hides the
# pass count. It is dropped (-qq still asks for less).
args=()
for arg in "$@"; do
  [[ $arg == -q || $arg == --quiet ]] || args+=("$arg")
done

cd "$here"
exec "$here/.venv/bin/python" -m pytest ${args[@]+"${args[@]}"}
