"""run.sh as clients start it: by absolute or relative path, from any folder, through symlinks."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "run.sh"

pytestmark = pytest.mark.skipif(
    not (ROOT / ".venv" / ".cobol-mcp-ready").exists(), reason="run.sh is not set up here (./test.sh sets it up)"
)


@pytest.mark.parametrize("how", ["absolute", "relative", "symlink", "symlink-to-symlink"])
def test_run_sh_finds_its_checkout(tmp_path, how):
    """Through a symlink (say ~/bin/cobol-mcp) the checkout is the linked file's folder, not the link's:
    nothing is set up beside the link."""
    cwd = tmp_path
    if how == "absolute":
        command = str(RUN)
    elif how == "relative":
        command, cwd = "./run.sh", ROOT
    elif how == "symlink":
        (tmp_path / "cobol-mcp").symlink_to(RUN)
        command = str(tmp_path / "cobol-mcp")
    else:
        (tmp_path / "bin").mkdir()
        (tmp_path / "first").symlink_to(RUN)
        (tmp_path / "bin" / "second").symlink_to("../first")
        command = "bin/second"  # relative, from the folder it is in
    done = subprocess.run([command, "--version"], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cobol-mcp-server "), done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({"absolute": [], "relative": [],
        "symlink": ["cobol-mcp"], "symlink-to-symlink": ["bin", "first"]}[how])  # fmt: skip


def test_run_sh_writes_nothing_to_stdout_without_input():
    done = subprocess.run([str(RUN)], stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
