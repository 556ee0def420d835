#!/usr/bin/env bash
# Run the test suite: sets up like ./run.sh (plus the test dependencies), then runs pytest.
# Arguments go to pytest (./test.sh -k stdio).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
COBOL_MCP_SETUP_ONLY=1 COBOL_MCP_EXTRAS=http,test "$here/run.sh"

# tests/deploy runs nginx (Debian's package) in front of replicas: install it like run.sh installs
# GnuCOBOL (apt-get, as root or with passwordless sudo, output on stderr); without it those tests skip.
if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
  if command -v apt-get >/dev/null && { [[ $(id -u) -eq 0 ]] || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; }; then
    root=(); [[ $(id -u) -eq 0 ]] || root=(sudo -n)
    printf 'test.sh: installing nginx with apt-get (for tests/deploy)\n' >&2
    { "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq || true
      "${root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; } >&2 \
      || printf 'test.sh: nginx could not be installed: tests/deploy will skip\n' >&2
  else
    printf 'test.sh: nginx is missing and cannot be installed here (not root, no passwordless sudo): tests/deploy will skip\n' >&2
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
