"""run.sh as clients start it: by absolute or relative path, from any folder, through symlinks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "run.sh"

set_up = pytest.mark.skipif(
    not (ROOT / ".venv" / ".cobol-mcp-ready").exists(), reason="run.sh is not set up here (./test.sh sets it up)"
)


@set_up
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


@set_up
def test_run_sh_writes_nothing_to_stdout_without_input():
    done = subprocess.run([str(RUN)], stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""


# Which Python set-up makes the virtualenv from (COBOL_MCP_SETUP_ONLY=python says it and stops). The
# candidates here are scripts that answer run.sh's timing loop with a fixed "microseconds, real path".


def fake_pythons(folder: Path, **answers: str) -> Path:
    """One script per name (python3_11 -> python3.11): it prints the answer; "fail" exits 1 instead."""
    folder.mkdir()
    for name, answer in answers.items():
        script = folder / name.replace("_", ".")
        body = "exit 1" if answer == "fail" else f"printf '%s\\n' '{answer}'"
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    return folder


def pick(*folders: Path, python: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": ":".join(map(str, folders)), "COBOL_MCP_SETUP_ONLY": "python"}
    if python is not None:
        env["COBOL_MCP_PYTHON"] = python
    held, open_end = os.pipe()  # stdin stays open, as a client's pipe does: nothing in set-up may wait on it
    try:
        return subprocess.run(["/bin/bash", str(RUN)], env=env, stdin=held, capture_output=True, text=True, timeout=60)
    finally:
        os.close(held)
        os.close(open_end)


def test_set_up_takes_the_fastest_python_even_if_older(tmp_path):
    bin_ = fake_pythons(tmp_path / "bin", python3_12="5000 /opt/a/python3.12", python3_11="2000 /opt/b/python3.11")
    done = pick(bin_)
    assert (done.returncode, done.stdout) == (0, f"{bin_}/python3.11\n"), done.stderr
    assert f"using {bin_}/python3.11, the fastest of 2 Pythons" in done.stderr


def test_set_up_keeps_the_newest_unless_another_is_clearly_faster(tmp_path):
    bin_ = fake_pythons(tmp_path / "bin", python3_12="1000 /opt/a/python3.12", python3_11="950 /opt/b/python3.11")
    assert pick(bin_).stdout == f"{bin_}/python3.12\n"  # 5% faster is within the noise of the loop


def test_set_up_counts_one_interpreter_under_two_names_once(tmp_path):
    first = fake_pythons(tmp_path / "first", python3_11="1000 /opt/a/python3.11")
    second = fake_pythons(tmp_path / "second", python3_11="900 /opt/a/python3.11", python3="100 /opt/a/python3.11")
    done = pick(first, second)
    assert done.stdout == f"{first}/python3.11\n"  # the same real path: the later names are not timed again
    assert "fastest of" not in done.stderr


def test_set_up_skips_pythons_that_are_too_old_or_broken(tmp_path):
    bin_ = fake_pythons(tmp_path / "bin", python3_13="fail", python3_12="not a number", python3="3000 /opt/c/python3")
    reader = bin_ / "python3.11"
    reader.write_text("#!/bin/sh\nexec /bin/cat\n")  # one that reads its stdin: it gets none, not the client's
    reader.chmod(0o755)
    assert pick(bin_).stdout == f"{bin_}/python3\n"
    assert pick(fake_pythons(tmp_path / "none", python3="fail")).stdout == ""  # none: set-up installs one


def test_cobol_mcp_python_chooses_the_interpreter(tmp_path):
    bin_ = fake_pythons(tmp_path / "bin", python3_12="10 /opt/a/python3.12", old="fail")
    assert pick(bin_, python=sys.executable).stdout == f"{sys.executable}\n"
    refused = pick(bin_, python=str(bin_ / "old"))
    assert refused.returncode == 1 and refused.stdout == ""
    assert f"COBOL_MCP_PYTHON={bin_}/old is not Python 3.11 or newer" in refused.stderr


def test_set_up_picks_a_working_python_on_this_machine():
    done = subprocess.run([str(RUN)], env={**os.environ, "COBOL_MCP_SETUP_ONLY": "python"},
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    check = subprocess.run([done.stdout.strip(), "-c", "import sys; print(sys.version_info >= (3, 11))"],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert check.stdout == "True\n"


@set_up
def test_test_sh_quiet_still_prints_the_pass_count():
    """pyproject.toml's addopts has -q already: `./test.sh -q` must not make it -qq, which hides the count."""
    done = subprocess.run(
        [str(ROOT / "test.sh"), "-q", "-p", "no:randomly", "tests/test_log.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed in " in done.stdout.splitlines()[-1], done.stdout
