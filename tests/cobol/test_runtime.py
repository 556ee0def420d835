"""The worker runtime against real COBOL fault programs: every fault is one failed call."""

import time
from pathlib import Path

import pytest

from cobol_mcp.cobol.prepare.cobc import BuildError, build_module
from cobol_mcp.cobol.runtime.pool import Runtime

from .conftest import call_past_timeout, call_sync, wait_running

FAULTS = Path(__file__).parent / "faults"
TIMEOUT = 600  # no call of these tests ends by its timeout unless a test makes it (past_every_timeout)
NAMES = ["stop-run", "endless", "chatty", "flood", "divide", "subscript", "segv", "return-code"]


@pytest.fixture
def runtime(cache_dir, worker):
    rt = Runtime(max_workers=2, timeout=TIMEOUT, worker=worker)
    for name in NAMES:
        rt.load(name, build_module(FAULTS / f"{name}.cob", cache_dir), name.replace("-", "__"), [4, 4])
    yield rt
    rt.close()


def call(rt, name, n):
    return call_sync(rt, name, [b"%04d" % n, b"    "])


def assert_recovers(rt, name):
    after = call(rt, name, 0)
    assert after.ok and after.buffers == [b"0000", b"0000"]


def test_normal_call_returns_records(runtime):
    result = call(runtime, "return-code", 0)
    assert result.ok and result.return_code == 0 and result.buffers == [b"0000", b"0000"]


def test_return_code_is_reported(runtime):
    result = call(runtime, "return-code", 7)
    assert result.ok and result.return_code == 7 and result.buffers[1] == b"0007"


def test_stop_run_is_an_error_and_the_next_call_works(runtime):
    result = call(runtime, "stop-run", 1)
    assert not result.ok
    assert "STOP RUN" in result.error and "GOBACK" in result.error
    assert_recovers(runtime, "stop-run")


def test_endless_loop_times_out_and_the_next_call_works(runtime):
    result = call_past_timeout(runtime, "endless", [b"0001", b"    "])  # it can only end by being timed out
    assert not result.ok and f"timed out after {TIMEOUT:g} s" in result.error
    assert_recovers(runtime, "endless")


def test_display_is_captured_per_call(runtime):
    result = call(runtime, "chatty", 3)
    assert result.ok and result.display == "hello from COBOL\nn is 0003\n"
    assert call(runtime, "return-code", 0).display == ""


def test_display_flood_is_bounded(runtime):
    result = call_past_timeout(runtime, "flood", [b"0001", b"    "])  # (the Python worker's ends by its timeout)
    assert not result.ok
    assert len(result.display) <= (1 << 16) + 100
    assert_recovers(runtime, "flood")


def test_subscript_out_of_range_is_a_runtime_error(runtime):
    result = call(runtime, "subscript", 5)
    assert not result.ok and "subscript of 'WS-ITEM' out of bounds: 5" in result.error
    assert_recovers(runtime, "subscript")


def test_null_pointer_call_is_caught(runtime):
    result = call(runtime, "segv", 1)
    assert not result.ok  # said as a run unit's death is said (see tests/e2e/test_run_unit_signals.py)
    assert "killed by SIGSEGV at segv.cob:9: attempt to reference unallocated memory" in result.error
    assert_recovers(runtime, "segv")


def test_divide_by_zero_without_on_size_error_leaves_the_target_unchanged(runtime):
    # GnuCOBOL raises a (non-fatal) size error: the receiving field keeps its value.
    result = call(runtime, "divide", 5)
    assert result.ok and result.buffers[1] == b"0000"


def test_pipelined_calls_behind_a_crash_are_resent(runtime):
    results = {}
    for i, name in enumerate(["return-code", "segv", "return-code", "chatty"]):
        runtime.submit(name, [b"%04d" % (i + 1), b"    "], lambda r, i=i: results.__setitem__(i, r))
    while len(results) < 4:
        runtime.run_once(0.1)
        runtime.expire()
    assert results[0].ok and results[0].return_code == 1
    assert not results[1].ok and "SIGSEGV" in results[1].error
    assert results[2].ok and results[2].return_code == 3
    assert results[3].ok and results[3].display.startswith("hello")


@pytest.fixture
def patient(cache_dir, worker):
    """A runtime whose timeout never ends an endless call during a test: only a cancel does."""
    rt = Runtime(max_workers=2, timeout=600, worker=worker)
    for name in ("endless", "return-code"):
        rt.load(name, build_module(FAULTS / f"{name}.cob", cache_dir), name.replace("-", "__"), [4, 4])
    yield rt
    rt.close()


def test_hung_call_does_not_block_other_workers(patient):
    results = {}
    hung = patient.submit("endless", [b"0001", b"    "], lambda r: results.__setitem__("hung", r))
    patient.run_once(0.1)
    time.sleep(0.1)  # let the first worker be seen as stalled
    patient.submit("return-code", [b"0002", b"    "], lambda r: results.__setitem__("quick", r))
    while "quick" not in results:
        patient.run_once(0.1)
        patient.expire()
    assert results["quick"].return_code == 2
    assert "hung" not in results  # still looping: the quick call did not wait for it
    assert patient.cancel(hung)


def test_cancel_running_call_kills_its_worker_without_a_callback(runtime):
    results = []
    call_id = runtime.submit("endless", [b"0001", b"    "], results.append)
    wait_running(runtime, call_id)
    assert runtime.cancel(call_id)
    assert runtime.scheduler.stats["died"] == 1  # running: its worker was killed
    assert not runtime.busy and results == []
    assert_recovers(runtime, "endless")


def test_missing_entry_point_is_an_error(cache_dir, worker):
    rt = Runtime(max_workers=1, worker=worker)
    try:
        rt.load("x", build_module(FAULTS / "chatty.cob", cache_dir), "no_such_symbol", [4, 4])
        result = call_sync(rt, "x", [b"0000", b"    "])
        assert not result.ok and "no_such_symbol" in result.error
    finally:
        rt.close()


def test_compile_error_names_file_and_line(tmp_path, cache_dir):
    bad = tmp_path / "bad.cob"
    bad.write_text("IDENTIFICATION DIVISION.\nPROGRAM-ID. bad.\nPROCEDURE DIVISION.\n    MOVE X TO Y.\n")
    with pytest.raises(BuildError, match=r"bad\.cob:4: error"):
        build_module(bad, cache_dir)


def test_second_build_is_a_cache_hit(cache_dir):
    first = build_module(FAULTS / "chatty.cob", cache_dir)
    mtime = first.stat().st_mtime_ns
    assert build_module(FAULTS / "chatty.cob", cache_dir) == first
    assert first.stat().st_mtime_ns == mtime


def test_calls_sent_while_a_call_hangs_go_to_another_worker(patient):
    results = {}
    hung = patient.submit("endless", [b"0001", b"    "], lambda r: results.__setitem__("hung", r))
    patient.flush()
    time.sleep(0.15)  # the hung call has now run longer than the 50 ms that marks a worker as stuck
    for i in range(3):
        patient.submit("return-code", [b"%04d" % i, b"    "], lambda r, i=i: results.__setitem__(i, r))
    while not all(i in results for i in range(3)):
        patient.run_once(0.05)
        patient.expire()
    assert [results[i].return_code for i in range(3)] == [0, 1, 2]
    assert "hung" not in results  # still looping: none of the three waited for it
    assert patient.cancel(hung)


def test_a_call_cancelled_while_queued_behind_its_module_load_never_runs_on(cache_dir, worker):
    """The first call of a fresh worker waits behind the frame that loads its module; cancelled there,
    it must be stopped when it reaches the front, or it would hold the only worker for good."""
    rt = Runtime(max_workers=1, timeout=600, worker=worker)  # only a cancel can end the endless call
    try:
        for name in ("endless", "return-code"):
            rt.load(name, build_module(FAULTS / f"{name}.cob", cache_dir), name.replace("-", "__"), [4, 4])
        results = []
        hung = rt.submit("endless", [b"0001", b"    "], results.append)
        rt.flush()  # the load frames and the call are on their way to the worker, one behind the other
        assert rt.cancel(hung)
        assert not rt.busy  # nothing anyone waits for
        quick = rt.submit("return-code", [b"0005", b"    "], results.append)
        assert quick != hung
        deadline = time.monotonic() + 120  # a hang guard, not a speed check: the old runtime never returned
        while not results and time.monotonic() < deadline:
            rt.run_once(0.1)
            rt.expire()
        assert len(results) == 1 and results[0].ok and results[0].return_code == 5
    finally:
        rt.close()
