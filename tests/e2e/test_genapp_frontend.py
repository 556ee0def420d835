"""`check` over a copy of GenApp's src (a public CICS/DB2 application, in ../shared/corpus beside the
repository), as its owners ship it: whatever each program is refused for, it is not the front end's
reading of the source (a COPY book named like its program, a comment-entry, EXEC SQL INCLUDE under the
COMMAREA, a COMMAREA named by REPLACING), and every refusal names the user's file and line once."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .stdio_client import SERVER

GENAPP = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "genapp" / "base" / "src"

pytestmark = pytest.mark.skipif(
    not GENAPP.is_dir(), reason=f"GenApp is not at {GENAPP} (the public applications live in ../shared/corpus)"
)

FRONT_END = (
    "expected a level number, found 'EXEC'",  # EXEC SQL INCLUDE under 01 DFHCOMMAREA
    "includes itself",  # COPY of a book named like the program
    "needs a precompiler first",  # EXEC CICS hidden by an apostrophe in a comment-entry
    "left untranslated",
    "without END-EXEC",
    "unterminated literal",
    "is ambiguous",  # a second DFHCOMMAREA
)


def test_genapp_gets_past_the_front_end_and_each_refusal_names_the_users_file_once(tmp_path: Path) -> None:
    folder = tmp_path / "src"
    shutil.copytree(GENAPP, folder)
    for path in folder.iterdir():
        path.chmod(0o644)
    cache = tmp_path / "cache"
    done = subprocess.run(
        [*SERVER, "check", "--no-bundled", "--programs", str(folder)], capture_output=True, text=True,
        env={**os.environ, "COBOL_MCP_CACHE": str(cache)}, timeout=1200, check=False,
    )  # fmt: skip
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert not [e for e in errors if any(text in e for text in FRONT_END)], "\n".join(errors)
    assert str(cache) not in done.stderr
    assert len(errors) == len(set(errors))
    assert "skipped:" not in done.stderr  # (the server's own log of them: check lists each once)
    for error in errors:  # each names a file of the application and its line
        assert re.match(rf"error: {re.escape(str(folder.resolve()))}/\S+:\d+: ", error), error
    for name in ("lgacdb01", "lgacdb02", "lgapdb01", "lgdpdb01", "lgicdb01", "lgipdb01", "lgucdb01", "lgupdb01"):
        theirs = [e for e in errors if f"/{name}.cbl:" in e]
        assert not [e for e in theirs if "EXEC" in e.split(": ", 2)[-1]], theirs  # its EXEC blocks all read
