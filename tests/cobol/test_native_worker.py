"""The C worker: built once and used by the server, the Python worker where it cannot be, and frames
no server sends (a wrong length, an unknown program, a cut-off frame) answered or ended cleanly."""

from __future__ import annotations

import os
import random
import select
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol.prepare.cobc import build_module
from cobol_mcp.cobol.prepare.driver import DRIVER_SYMBOL
from cobol_mcp.cobol.prepare.executable import GUARD, SQL_ENTRY
from cobol_mcp.cobol.prepare.native_worker import WORKER_FILES, WORKER_FOLDER, build_worker, worker_path
from cobol_mcp.cobol.runtime.frames import REPLY_HEAD, REQUEST_HEAD, load_body
from cobol_mcp.cobol.runtime.pool import Runtime
from cobol_mcp.cobol.runtime.process import spawn_worker
from cobol_mcp.options import Options
from cobol_mcp.server import build_server

from .conftest import call_sync, call_tool

FAULTS = Path(__file__).parent / "faults"


def worker_exe(runtime: Runtime) -> str:
    """The executable of the runtime's (first) worker process, as the kernel has it."""
    return os.readlink(f"/proc/{runtime._workers[0].pid}/exe")


# ------------------------------------------------------------------------------------ which worker runs


def test_the_server_runs_the_c_worker_it_built(cache_dir: Path, c_worker: Path) -> None:
    server = build_server(Options(cache_dir=cache_dir))
    try:
        assert server.runtime.worker == server.found["worker"] == str(c_worker)
        result = call_tool(server, "add", {"a": "1.10", "b": "2.20"})
        assert result["structuredContent"]["sum"] == "3.30", result
        assert worker_exe(server.runtime) == os.path.realpath(c_worker)
    finally:
        server.runtime.close()


def test_the_python_worker_is_used_on_request(cache_dir: Path, c_worker: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("COBOL_MCP_WORKER", "python")
    server = build_server(Options(cache_dir=cache_dir))
    try:
        assert server.runtime.worker is None
        assert call_tool(server, "add", {"a": "1", "b": "2"})["structuredContent"]["sum"] == "3"
        assert worker_exe(server.runtime) == os.path.realpath(sys.executable)
    finally:
        server.runtime.close()


def test_no_c_compiler_means_one_warning_and_the_python_worker(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.delenv("COBOL_MCP_WORKER_CACHE", raising=False)  # (a cache of its own, with no worker built)
    cache = tmp_path / "cache"
    server = build_server(Options(cache_dir=cache))
    try:
        warnings = [line for line in capsys.readouterr().err.splitlines() if "C worker" in line]
        assert len(warnings) == 1 and "no C compiler" in warnings[0] and "Python worker" in warnings[0]
        assert server.found["worker"] is None and server.runtime.worker is None
        assert call_tool(server, "add", {"a": "1", "b": "2"})["structuredContent"]["sum"] == "3"
        assert worker_exe(server.runtime) == os.path.realpath(sys.executable)
    finally:
        server.runtime.close()
    assert not (cache / "worker").exists() or not any((cache / "worker").rglob("cobol-mcp-worker"))


def worker_copy(folder: Path) -> Path:
    """The C worker's sources copied into `folder`, to be changed there."""
    folder.mkdir()
    for name in WORKER_FILES:
        (folder / name).write_bytes((WORKER_FOLDER / name).read_bytes())
    return folder


def test_a_worker_that_does_not_compile_is_a_warning(tmp_path: Path, capsys: Any) -> None:
    sources = worker_copy(tmp_path / "sources")
    main = sources / "worker.c"
    main.write_text(main.read_text().replace("int main(", "int main(int nonsense "))
    assert build_worker(tmp_path / "cache", sources) is None
    err = capsys.readouterr().err
    assert "the C worker did not compile (" in err and "using the Python worker" in err
    assert len(err.strip().splitlines()) == 1


def test_the_worker_is_built_once_per_source(cache_dir: Path, c_worker: Path) -> None:
    mtime = c_worker.stat().st_mtime_ns
    assert build_worker(cache_dir) == c_worker and c_worker.stat().st_mtime_ns == mtime


def test_a_worker_that_cannot_start_falls_back_to_python(cache_dir: Path, tmp_path: Path, capsys: Any) -> None:
    rt = Runtime(max_workers=1, worker=str(tmp_path / "gone" / "cobol-mcp-worker"))
    try:
        rt.load("rc", build_module(FAULTS / "return-code.cob", cache_dir), "return__code", [4, 4])
        result = call_sync(rt, "rc", [b"0003", b"    "])
        assert result.ok and result.return_code == 3 and result.buffers == [b"0003", b"0003"]
        assert rt.worker is None and "cannot be started" in capsys.readouterr().err
    finally:
        rt.close()


def test_a_change_to_any_of_the_workers_files_is_a_new_build(tmp_path: Path) -> None:
    sources = worker_copy(tmp_path / "sources")
    keys = {worker_path(tmp_path, sources)}
    for name in WORKER_FILES:
        with (sources / name).open("a") as handle:
            handle.write("\n/* changed */\n")
        keys.add(worker_path(tmp_path, sources))
    assert len(keys) == len(WORKER_FILES) + 1


def test_every_c_source_of_the_runtime_is_built() -> None:
    """A .c or .h file added beside the worker is compiled and keyed, not forgotten (the one that is not
    the worker's, the run unit's SQLRT and guard, are linked into the executables of console programs,
    keyed there)."""
    on_disk = sorted(p.name for p in WORKER_FOLDER.iterdir() if p.suffix in (".c", ".h"))
    assert SQL_ENTRY.parent == GUARD.parent == WORKER_FOLDER
    assert on_disk == sorted((*WORKER_FILES, SQL_ENTRY.name, GUARD.name))


def test_the_worker_exports_only_main_and_the_service_entries(c_worker: Path) -> None:
    """Linked with -rdynamic, so COBOL's CALL finds SQLRT and CICSRT by name: everything else of its
    own stays static or hidden, so that no loaded COBOL module can bind to it by chance."""
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is not installed")
    listed = subprocess.run([nm, "-D", "--defined-only", str(c_worker)], capture_output=True, text=True, check=True)
    names = {line.split()[-1] for line in listed.stdout.splitlines() if line.strip()}
    # the C runtime's and the linker's own symbols (_start, _edata, __bss_start ... and copy
    # relocations such as stderr@GLIBC) are not the worker's
    own = {name for name in names if not name.startswith("_") and "@" not in name and name != "data_start"}
    assert own == {"main", "SQLRT", "CICSRT"}


def test_the_caller_symbol_is_the_drivers() -> None:
    assert f'#define CALLER_SYMBOL "{DRIVER_SYMBOL}"' in (WORKER_FOLDER / "worker_load.c").read_text()


# ------------------------------------------------------------------------------------ frames no server sends


class RawWorker:
    """A worker driven frame by frame, as the runtime would but with any bytes at all."""

    def __init__(self, executable: str | None) -> None:
        self.devnull = os.open(os.devnull, os.O_RDONLY)
        started = spawn_worker(dict(os.environ), self.devnull, 1 << 16, 0.0, executable)
        self.pid, self.send_fd, self.reply_fd, self.display_fd, self.stderr_fd, _ = started
        self.received = b""
        self.ended = False

    def send(self, data: bytes) -> None:
        while data:
            data = data[os.write(self.send_fd, data) :]

    def frame(self, kind: int, call_id: int, body: bytes, length: int | None = None) -> None:
        self.send(REQUEST_HEAD.pack(kind, call_id, len(body) if length is None else length) + body)

    def reply(self) -> tuple[int, int, int, bytes, bytes]:
        deadline = time.monotonic() + 60  # a hang guard, not a speed check
        while True:
            if len(self.received) >= REPLY_HEAD.size:
                call_id, status, code, records, text = REPLY_HEAD.unpack_from(self.received)
                end = REPLY_HEAD.size + records + text
                if len(self.received) >= end:
                    body = self.received[REPLY_HEAD.size : end]
                    self.received = self.received[end:]
                    return call_id, status, code, body[:records], body[records:]
            assert time.monotonic() < deadline, "no reply"
            if select.select([self.reply_fd], [], [], 1)[0]:
                chunk = os.read(self.reply_fd, 1 << 16)
                assert chunk, "the worker ended instead of answering"
                self.received += chunk

    def end(self) -> int:
        """Close the request pipe; the worker's exit status."""
        self.ended = True
        os.close(self.send_fd)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.01)
        else:
            os.kill(self.pid, 9)
            pid, status = os.waitpid(self.pid, 0)
        for fd in (self.reply_fd, self.display_fd, self.stderr_fd, self.devnull):
            os.close(fd)
        return status


@pytest.fixture
def raw(worker: str | None) -> Any:
    started = RawWorker(worker)
    yield started
    if not started.ended:
        started.end()


def rc_module(cache_dir: Path) -> str:
    return str(build_module(FAULTS / "return-code.cob", cache_dir))


def test_wrong_frames_get_error_replies_and_the_worker_carries_on(raw: RawWorker, cache_dir: Path) -> None:
    raw.frame(1, 0, load_body(3, (rc_module(cache_dir), "return__code", (4, 4), "", "", "")))
    assert raw.reply()[:2] == (0, 0)
    raw.frame(2, 10, struct.pack("<H", 3) + b"0001")  # records of 4 bytes, not 8
    assert raw.reply() == (10, 1, 0, b"", b"no program 3 with records of 4 bytes")
    raw.frame(2, 11, struct.pack("<H", 9) + b"00010000")  # nothing was loaded as program 9
    assert raw.reply() == (11, 1, 0, b"", b"no program 9 with records of 8 bytes")
    raw.frame(2, 12, b"x")
    assert raw.reply() == (12, 1, 0, b"", b"a call frame of 1 bytes names no program")
    raw.frame(7, 13, b"whatever")
    assert raw.reply() == (13, 1, 0, b"", b"unknown request kind 7")
    raw.frame(2, 14, struct.pack("<H", 3) + b"0005    ")
    assert raw.reply() == (14, 0, 5, b"00050005", b"")
    assert raw.end() == 0


def test_bad_load_frames_are_load_errors(raw: RawWorker, cache_dir: Path) -> None:
    raw.frame(1, 0, struct.pack("<HH", 4, 2) + struct.pack("<2I", 4, 4) + b"no-terminator")
    call_id, status, _, _, text = raw.reply()
    assert (call_id, status) == (0, 1) and text.startswith(b"cannot load the COBOL module: ")
    raw.frame(2, 20, struct.pack("<H", 4) + b"00010000")
    assert raw.reply() == (20, 1, 0, b"", text)  # each call of it gets its load error
    missing = cache_dir / "missing.so"
    raw.frame(1, 0, load_body(5, (str(missing), "MISSING", (4,), "", "", "")))
    _, status, _, _, text = raw.reply()  # the loader's own words, as ctypes passes them on
    assert status == 1
    why = "cannot open shared object file: No such file or directory"
    assert text == f"cannot load the COBOL module: {missing}: {why}".encode()
    raw.frame(2, 21, struct.pack("<H", 5) + b"0000")
    _, status, _, _, again = raw.reply()
    assert status == 1 and again == text
    raw.frame(1, 0, load_body(6, (rc_module(cache_dir), "no_such_entry", (4, 4), "", "", "")))
    _, status, _, _, text = raw.reply()
    assert (
        status == 1
        and text == f"cannot load the COBOL module: {rc_module(cache_dir)}: undefined symbol: no_such_entry".encode()
    )
    assert raw.end() == 0


def test_a_frame_cut_off_before_its_end_is_a_clean_exit(raw: RawWorker, cache_dir: Path) -> None:
    raw.frame(1, 0, load_body(0, (rc_module(cache_dir), "return__code", (4, 4), "", "", "")))
    assert raw.reply()[1] == 0
    raw.send(REQUEST_HEAD.pack(2, 30, 10) + struct.pack("<H", 0) + b"000")  # 5 of its 10 bytes
    assert raw.end() == 0


def test_a_huge_length_is_answered_without_waiting_for_it(c_worker: Path) -> None:
    raw = RawWorker(str(c_worker))
    raw.frame(2, 40, struct.pack("<H", 0) + b"0000", length=0xFFFFFFFF)
    assert raw.reply() == (40, 1, 0, b"", b"no program 0 with records of 4294967293 bytes")
    assert raw.end() == 0  # what followed was read as that frame's body, and never kept
    raw = RawWorker(str(c_worker))
    raw.frame(1, 41, b"", length=0x7FFFFFFF)
    _, status, _, _, text = raw.reply()
    assert status == 1 and text == b"cannot load the COBOL module: a load frame of 2147483647 bytes"
    assert raw.end() == 0


def test_random_bytes_never_crash_the_c_worker(c_worker: Path, cache_dir: Path) -> None:
    generator = random.Random(14)
    module = rc_module(cache_dir)
    for _ in range(20):
        raw = RawWorker(str(c_worker))
        raw.frame(1, 0, load_body(generator.randrange(3), (module, "return__code", (4, 4), "", "", "")))
        for _ in range(30):
            kind = generator.choice([1, 2, 2, 2, 0, 255])
            body = bytes(generator.randrange(256) for _ in range(generator.randrange(12)))
            length = generator.choice([len(body), len(body), generator.randrange(1 << 32), generator.randrange(16)])
            raw.send(REQUEST_HEAD.pack(kind, generator.randrange(1 << 32), length) + body)
        status = raw.end()
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
