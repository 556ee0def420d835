"""A folder compiles with several cobc processes at once, shown structurally: a stand-in `cobc` that
only goes on once two compilers are inside (it records how many it saw), then runs the real one."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from cobol_mcp.cobol.prepare.programs import scan_folder

from .conftest import sample

REAL_COBC = shutil.which("cobc")
pytestmark = pytest.mark.skipif(REAL_COBC is None, reason="GnuCOBOL (cobc) is not installed")

STAND_IN = """#!/bin/sh
# Enter, wait (bounded) until {n} compilers are inside, note how many were seen, then compile.
touch "{room}/in.$$"
i=0
while [ "$(ls "{room}" | grep -c '^in\\.')" -lt {n} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
ls "{room}" | grep -c '^in\\.' > "{room}/seen.$$"
exec {cobc} "$@"
"""


def test_two_programs_compile_at_once(tmp_path, monkeypatch):
    room, bin_dir, folder = tmp_path / "room", tmp_path / "bin", tmp_path / "src"
    for d in (room, bin_dir, folder):
        d.mkdir()
    for name in ("add-numbers.cob", "hello.cob"):
        shutil.copy(sample(name), folder / name)
    cobc = bin_dir / "cobc"
    cobc.write_text(STAND_IN.format(room=room, n=2, cobc=REAL_COBC))
    cobc.chmod(cobc.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}:{Path(REAL_COBC).parent}")

    scan = scan_folder(folder, cache_dir=tmp_path / "cache", jobs=2)

    assert scan.errors == []
    assert [p.spec.source.name for p in scan.programs] == ["add-numbers.cob", "hello.cob"]  # the folder's order
    seen = sorted(int(p.read_text()) for p in room.glob("seen.*"))
    assert seen == [2, 2]  # each compiler found the other inside


def test_one_job_keeps_the_folder_order_and_reports_failures_in_place(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    shutil.copy(sample("add-numbers.cob"), folder / "b.cob")
    (folder / "a.cob").write_text(
        "IDENTIFICATION DIVISION.\nPROGRAM-ID. broken.\nPROCEDURE DIVISION.\n    MOVE UNDEFINED-ITEM TO OTHER-ITEM.\n"
    )
    scan = scan_folder(folder, cache_dir=tmp_path / "cache", jobs=1)
    assert [p.spec.source.name for p in scan.programs] == ["b.cob"]
    assert len(scan.errors) == 1 and "a.cob" in scan.errors[0]
