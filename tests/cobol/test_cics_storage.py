"""GETMAIN'd storage does not outlive its call: CUSTTASK's GTM request GETMAINs three areas and FREEMAINs
two, call after call on one reused C worker, and the worker says (with each GETMAIN) how many areas it
holds: the one a call left is freed when the call ends, so every call starts from none."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.prepare.tool_entry import callable_entry
from cobol_mcp.cobol.runtime.pool import CallResult, Runtime
from cobol_mcp.sqlbridge.cics import CicsSession
from cobol_mcp.sqlbridge.cics_served import load_cics

from .conftest import needs_cobc

TASK = Path(__file__).parents[1] / "cics_programs" / "task"
COMMAREA = b"GTM" + b"0" * 8 + b"0" * 12 + b"N" + b" " * 74 + b"0000" + b" " * 6


def _call(rt: Runtime, session: CicsSession, buffers: list[bytes]) -> CallResult:
    box: list[CallResult] = []
    rt.submit("custtask", session.first(buffers), box.append, None, service=session.answer)
    while not box:
        deadline = rt.next_deadline()
        rt.run_once(None if deadline is None else max(0.0, deadline - time.monotonic()))
        rt.expire()
    session.end(box[0].ok)
    return box[0]


@needs_cobc
def test_a_reused_worker_holds_no_area_of_an_earlier_call(tmp_path: Path, cache_dir: Path, c_worker: Path) -> None:
    folder = tmp_path / "task"
    folder.mkdir()
    for name in ("CUSTTASK.cbl", "TASKCOMM.cpy"):
        shutil.copy(TASK / name, folder)
    [program] = scan_folder(folder, cache_dir=cache_dir, jobs=1).programs
    entry = callable_entry(program, False)
    assert entry["sizes"][:2] == [85, len(COMMAREA)]
    rt = Runtime(max_workers=1, worker=str(c_worker), timeout=60.0)
    try:
        rt.load("custtask", entry["module"], entry["symbol"], entry["sizes"], driver=entry["driver"],
                program_id=entry["program_id"], driver_symbol=entry["driver_symbol"])  # fmt: skip
        where = {"original": str(folder / "CUSTTASK.cbl"), "folder": str(folder), "commands": []}
        cics = load_cics(where, "CUSTTASK", None, None, None).program  # type: ignore[arg-type]  # a plain dict
        padding = [b" "] * entry["padding"]
        seen = []
        for _ in range(25):
            session = CicsSession(cics)
            result = _call(rt, session, [bytes(85), COMMAREA, *padding])
            assert result.ok, result
            assert result.buffers[1][19:23] == b"0200"  # TA-COUNT: INITIMG filled all 200 bytes
            seen.append(session.task.live_before)
        assert seen == [[0, 1, 2]] * 25  # within a call: 0, 1, 2 live; the next call starts from none again
    finally:
        rt.close()
