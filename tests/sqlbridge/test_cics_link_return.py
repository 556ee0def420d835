"""A LINKed program's RETURN without options is answered in the C worker, not by the server.

RETFRNT LINKs to RETBACK three times; RETBACK raises QIDERR, goes to its HANDLE CONDITION label and
RETURNs from there. The exchanges the server answers are counted: per LINK the LINK, the HANDLE
CONDITION and the DELETEQ TS (no RETURN), and the front's own RETURN (a task's last RETURN still goes
to the server). What the programs count shows that the worker's answer is the server's: the label is
left for the GOBACK (DFHEIGDI 0: else RETBACK's label would run twice), and each LINK leaves the
caller the EIB a LINK leaves (EIBRESP NORMAL, EIBFN of LINK, its own EIBCALEN).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.prepare.cics import translate
from cobol_mcp.cobol.prepare.cobc import DEFAULT_FLAGS, build_module
from cobol_mcp.cobol.prepare.links import call_folder
from cobol_mcp.cobol.prepare.native_worker import build_worker
from cobol_mcp.cobol.runtime.pool import Runtime
from cobol_mcp.db.cics.fct import create_datasets
from cobol_mcp.db.url import Database
from cobol_mcp.sqlbridge.answers import Tracked, answerer_for
from cobol_mcp.sqlbridge.cics import CicsProgram, CicsSession

PROGRAMS = Path(__file__).parents[1] / "cics_programs" / "linkret"


@pytest.mark.skipif(shutil.which("cobc") is None, reason="GnuCOBOL's cobc is not installed")
def test_a_linked_programs_return_costs_no_exchange(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    modules = {}
    for stem in ("RETBACK", "RETFRNT"):
        done = translate(PROGRAMS / f"{stem}.cbl", "fixed", (), tmp_path / "gen" / stem)
        modules[stem] = build_module(done.source, cache, source_format="fixed", flags=(*DEFAULT_FLAGS, *done.flags),
                                     include=done.include)  # fmt: skip
    runtime = Runtime(max_workers=1, worker=str(build_worker(cache)), timeout=120,
                      library_path=[call_folder([(k, str(v)) for k, v in modules.items()], cache)])  # fmt: skip
    runtime.load("front", modules["RETFRNT"], "RETFRNT", [85, 20])
    db = Database("sqlite", str(tmp_path / "t.db"))
    create_datasets(db, [])  # the CICS tables (TS queues, task numbers)
    session = Tracked(CicsSession(CicsProgram("RETFRNT", str(PROGRAMS / "RETFRNT.cbl"), db, {})), answerer_for(runtime))
    answered: list[str] = []
    inner = session.session.answer

    def answer(exchange: Any) -> list[bytes]:
        answered.append(bytes(exchange.params[1]).decode("latin-1").rstrip(" \0").split(";")[1])
        return inner(exchange)

    session.session.answer = answer  # type: ignore[method-assign]
    assert session.first is not None
    box: list[Any] = []
    runtime.submit("front", session.first([bytes(85), b"0003".ljust(20, b"0")]), box.append, 120,
                   service=session.answer)  # fmt: skip
    runtime.flush()
    try:
        while not box:
            runtime.run_once(None)
            runtime.expire()
    finally:
        session.end(bool(box and box[0].ok))
        runtime.close()
    assert box[0].ok, box[0].error
    area = box[0].buffers[1].decode()
    assert [area[i : i + 4] for i in range(0, 20, 4)] == ["0003", "0003", "0003", "0012", "0000"]
    assert answered == ["LINK", "HANDLE CONDITION", "DELETEQ TS"] * 3 + ["RETURN"]
