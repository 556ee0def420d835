"""The areas of SET commands (READNEXT/READPREV SET, GET CONTAINER SET) do not outlive their call, nor
pile up within it: CUSTSETP browses CUSTFILE by pointer and gets a container twice by pointer, call after
call on one reused C worker, which says (with each SET command) how many such areas it holds. The next
data of the same browse or container replaces the last (one area held, not one per record), and the
call's end frees them all, so every call starts from none."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from cobol_mcp.cobol.prepare.programs import scan_folder
from cobol_mcp.cobol.prepare.tool_entry import callable_entry
from cobol_mcp.cobol.runtime.pool import CallResult, Runtime
from cobol_mcp.sqlbridge.cics import CicsSession
from cobol_mcp.sqlbridge.cics_served import load_cics

from ..e2e.database_folder import CUSTFILE
from .conftest import needs_cobc

PROGRAMS = Path(__file__).parents[1] / "cics_programs"
TOML = CUSTFILE + 'load = "customers.txt"\n'


def _call(rt: Runtime, session: CicsSession, buffers: list[bytes]) -> CallResult:
    box: list[CallResult] = []
    rt.submit("custsetp", session.first(buffers), box.append, None, service=session.answer)
    while not box:
        deadline = rt.next_deadline()
        rt.run_once(None if deadline is None else max(0.0, deadline - time.monotonic()))
        rt.expire()
    session.end(box[0].ok)
    return box[0]


@needs_cobc
def test_set_areas_are_replaced_per_slot_and_freed_at_the_call_end(
    tmp_path: Path, cache_dir: Path, c_worker: Path
) -> None:
    folder = tmp_path / "setptr"
    shutil.copytree(PROGRAMS / "setptr", folder)
    shutil.copy(PROGRAMS / "copybooks" / "CUSTREC.cpy", folder)
    (folder / "customers.txt").write_text("".join(f"{key:08d}{'NAME ' + str(key):<30}\n" for key in (20, 30, 40)))
    (folder / "cobol-mcp.toml").write_text(TOML)
    [program] = scan_folder(folder, cache_dir=cache_dir, jobs=1).programs
    entry = callable_entry(program, False)
    size = entry["sizes"][1]
    rt = Runtime(max_workers=1, worker=str(c_worker), timeout=60.0)
    try:
        rt.load("custsetp", entry["module"], entry["symbol"], entry["sizes"], driver=entry["driver"],
                program_id=entry["program_id"], driver_symbol=entry["driver_symbol"])  # fmt: skip
        where = {"original": str(folder / "CUSTSETP.cbl"), "folder": str(folder), "commands": []}
        cics = load_cics(where, "CUSTSETP", None, str(folder), str(folder / "cobol-mcp.toml")).program  # type: ignore[arg-type]
        padding = [b" "] * entry["padding"]
        seen = []
        for _ in range(12):
            for request in (b"BRW00000015", b"CON00001234"):
                session = CicsSession(cics)
                result = _call(rt, session, [bytes(85), request.ljust(size, b"\0"), *padding])
                assert result.ok, result
                seen.append(session.task.kept_before)
        # BRW: READNEXT 20, 30, 40 (then ENDFILE), READPREV 30, all one browse's: one area held;
        # CON: two GET CONTAINER SET of one container: its one area. Each call starts from none.
        assert seen == [[0, 1, 1, 1], [0, 1]] * 12
    finally:
        rt.close()
