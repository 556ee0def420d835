#!/usr/bin/env bash
# Run the test suite: sets up like ./run.sh (plus the test dependencies), then runs pytest.
# Arguments go to pytest (./test.sh -k stdio).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
COBOL_MCP_SETUP_ONLY=1 COBOL_MCP_EXTRAS=http,test "$here/run.sh"
cd "$here"
exec "$here/.venv/bin/python" -m pytest "$@"
