"""The official MCP conformance suite against the HTTP server, on the 2025-11-25 and 2026-07-28 wires
(tests/conformance/run.sh)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).parent / "run.sh"


def test_conformance_suite(cache_dir):
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: the conformance suite and Node 22 come from the npm registry")
    done = subprocess.run(
        ["bash", str(RUN)], env={**os.environ, "PYTHON": sys.executable}, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, f"conformance suite failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
