"""The `unit` marker (`./test.sh -m unit`): it selects exactly the modules listed as fast unit tests,
each of them has tests, and a unit test that starts a server or cobc fails (tests/conftest.py)."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.conftest import ROOT, UNIT, unit_process_refusal


def test_the_marker_is_registered():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(marker.startswith("unit:") for marker in options["markers"])


def test_the_marker_selects_the_listed_modules_and_each_of_them():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-o",
            "addopts=",
            "--collect-only",
            "-q",
            "-m",
            "unit",
            "-p",
            "no:randomly",
            "tests",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    selected = [line.split("::")[0] for line in done.stdout.splitlines() if "::" in line]
    assert selected, done.stdout
    outside = sorted({path for path in selected if not path.removeprefix("tests/").startswith(UNIT)})
    assert outside == []
    empty = [entry for entry in UNIT if not any(path.removeprefix("tests/").startswith(entry) for path in selected)]
    assert empty == []  # a listed module that was renamed or removed is noticed
    assert not any(path.startswith(("tests/e2e/", "tests/transports/")) for path in selected)


def test_a_unit_test_may_start_a_fresh_python_only():
    assert unit_process_refusal([sys.executable, "-c", "import sys"]) is None
    assert unit_process_refusal([sys.executable, "-S", "-c", "import sys"]) is None
    assert "starts no process" in unit_process_refusal(["cobc", "-x", "prog.cob"])
    assert "starts no process" in unit_process_refusal([sys.executable, "-m", "cobol_mcp", "serve"])
    assert "starts no process" in unit_process_refusal("cobc -x prog.cob")
