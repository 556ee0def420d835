"""CALLs between programs in the worker runtime: the PROGRAM-ID links, and a changed search path."""

from pathlib import Path

from cobol_mcp.cobol.prepare.cobc import build_module
from cobol_mcp.cobol.prepare.driver import build_driver
from cobol_mcp.cobol.prepare.links import call_folder
from cobol_mcp.cobol.runtime.pool import Runtime

from .conftest import call_sync

CALLS = Path(__file__).parent / "realworld" / "calls"


def invdue(rt: Runtime) -> bytes:
    result = call_sync(rt, "invdue", [b"20240215" + b"030" + b"010", b" " * 17])
    assert result.ok and result.return_code == 0, result
    return result.buffers[1]


def test_a_changed_search_path_reaches_the_new_callee(cache_dir, tmp_path, worker):
    caller = build_module(CALLS / "invdue.cbl", cache_dir, source_format="fixed")
    first = build_module(CALLS / "date-util.cbl", cache_dir, source_format="fixed")
    # The same PROGRAM-ID, edited: it counts one day more.
    edited = tmp_path / "date-util.cbl"
    edited.write_text((CALLS / "date-util.cbl").read_text().replace("+ LS-DU-DAYS", "+ LS-DU-DAYS + 1"))
    second = build_module(edited, cache_dir, source_format="fixed")
    rt = Runtime(max_workers=1, library_path=[call_folder([("DATEUTIL", str(first))], cache_dir)], worker=worker)
    try:
        rt.load("invdue", caller, "INVDUE", [14, 17], driver=build_driver(cache_dir), program_id="INVDUE")
        assert invdue(rt) == b"20240316" + b"6" + b"20240225"
        rt.set_library_path([call_folder([("DATEUTIL", str(second))], cache_dir)])
        assert invdue(rt) == b"20240317" + b"7" + b"20240226"  # a new worker, the new DATEUTIL
        assert rt.stats["died"] == 0  # the old worker was stopped while idle, not lost
    finally:
        rt.close()
