"""The guard linked into every console executable: a run unit never outlives the server that started it.

The executable is started as the server starts it, with no code run between fork and exec; the guard
runs before the COBOL program. Named parent that is not its parent: it ends at once (the server died
before the child got going). Its real parent named: the program runs. No variable (run by hand): the
program runs.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from cobol_mcp.cobol.prepare.executable import build_executable
from cobol_mcp.cobol.runtime.rununit import PARENT_VARIABLE

HELLO = """       IDENTIFICATION DIVISION.
       PROGRAM-ID. HELLO.
       PROCEDURE DIVISION.
           DISPLAY "HELLO FROM THE RUN UNIT"
           STOP RUN.
"""


def _run(executable: Path, parent: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != PARENT_VARIABLE}
    if parent is not None:
        env[PARENT_VARIABLE] = parent
    return subprocess.run([str(executable)], env=env, capture_output=True, text=True, timeout=60, check=False)


def test_the_guard_ends_a_run_unit_whose_server_is_gone_and_lets_others_run(cache_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "HELLO.cbl"
    source.write_text(HELLO)
    executable = build_executable(source, cache_dir, source_format="fixed")

    orphan = _run(executable, "1")  # pid 1 is never this test's process: "the server is gone"
    assert (orphan.returncode, orphan.stdout) == (1, "")

    served = _run(executable, str(os.getpid()))
    assert (served.returncode, served.stdout.strip()) == (0, "HELLO FROM THE RUN UNIT")

    by_hand = _run(executable, None)
    assert (by_hand.returncode, by_hand.stdout.strip()) == (0, "HELLO FROM THE RUN UNIT")
