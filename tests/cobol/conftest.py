"""Shared fixtures: the sample programs, parsed once and compiled once per test session."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cobol_mcp.cobol import SOURCE_SUFFIXES
from cobol_mcp.cobol.linkage.frozen import replace
from cobol_mcp.cobol.linkage.model import Field, ProgramSpec
from cobol_mcp.cobol.linkage.program import parse_program
from cobol_mcp.jsontext import Encoded, dumps

SAMPLES = Path(__file__).parent / "samples"
COPYBOOKS = SAMPLES / "copybooks"
SAMPLE_PATHS = sorted(p for p in SAMPLES.iterdir() if p.suffix.lower() in SOURCE_SUFFIXES)
HAVE_COBC = shutil.which("cobc") is not None

needs_cobc = pytest.mark.skipif(not HAVE_COBC, reason="GnuCOBOL's cobc is not installed")


def sample(name: str) -> Path:
    return next(p for p in SAMPLE_PATHS if p.name == name)


def reported(f: Field, value: Any) -> Any:
    """``value`` of ``f`` (a group's dict, an OCCURS list) as a result reports it: an item with more digits
    than a binary double keeps comes back as decimal text (records.items.beyond_double)."""
    from cobol_mcp.cobol.records.items import beyond_double, decimal_text

    if isinstance(value, list) and f.occurs and f.level not in (1, 77):
        return [reported(replace(f, occurs=None), v) for v in value]
    if isinstance(value, dict) and f.children:
        kids = {c.key: c for c in f.children if c.key}
        return {k: reported(kids[k], v) if k in kids else v for k, v in value.items()}
    if value is not None and not isinstance(value, str) and beyond_double(f):
        return decimal_text(value)
    return value


def find(f: Field, name: str) -> Field:
    """The item called ``name`` (first definition, depth first) under ``f``."""
    if f.name.upper() == name.upper():
        return f
    for c in f.children:
        try:
            return find(c, name)
        except KeyError:
            pass
    raise KeyError(name)


@pytest.fixture(scope="session")
def specs() -> dict[str, ProgramSpec]:
    return {p.name: parse_program(p) for p in SAMPLE_PATHS}


def cobc(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["cobc", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.fixture(scope="session")
def compiled_samples(tmp_path_factory: pytest.TempPathFactory, specs: dict[str, ProgramSpec]) -> dict[str, Path]:
    """Every sample compiled with ``cobc -m`` (in parallel), keyed by file name."""
    if not HAVE_COBC:
        pytest.skip("GnuCOBOL's cobc is not installed")
    out = tmp_path_factory.mktemp("modules")

    def build(path: Path) -> tuple[str, Path, subprocess.CompletedProcess[str]]:
        target = out / f"{path.stem}.so"
        fmt = specs[path.name].source_format
        done = cobc("-m", f"-{fmt}", "-I", str(COPYBOOKS), "-o", str(target), str(path))
        return path.name, target, done

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(build, SAMPLE_PATHS))
    failures = [f"{name}: {done.stderr}" for name, _, done in results if done.returncode != 0]
    assert not failures, "\n".join(failures)
    return {name: target for name, target, _ in results}


def call_sync(runtime: Any, name: str, buffers: Any, timeout: float | None = None) -> Any:
    """One call run to completion on a Runtime's own loop: submit, then wait and expire until it ends."""
    import time

    box: list[Any] = []
    runtime.submit(name, buffers, box.append, timeout)
    runtime.flush()
    while not box:
        deadline = runtime.next_deadline()
        runtime.run_once(None if deadline is None else max(0.0, deadline - time.monotonic()))
        runtime.expire()
    return box[0]


def wait_running(runtime: Any, call_id: int, done: list[Any] | None = None) -> bool:
    """Until call ``call_id`` runs in its worker (the worker has started, loaded its module and taken the
    call): an event to wait for, however busy the machine, where a fixed wait is a guess. With ``done``
    (the call's result box), False if the call ended first."""
    while not any(lane.inflight and lane.inflight[0].id == call_id for lane in runtime.scheduler.lanes):
        if done:
            return False
        runtime.run_once(1.0)
    return True


def call_past_timeout(runtime: Any, name: str, buffers: Any) -> Any:
    """One call that may only end by its timeout: run until it runs in its worker, then past its timeout
    (:func:`past_every_timeout`), to its result; a call that ends by itself first gives that result."""
    box: list[Any] = []
    call_id = runtime.submit(name, buffers, box.append)
    if wait_running(runtime, call_id, box):
        past_every_timeout(runtime)
    while not box:
        runtime.run_once(1.0)
    return box[0]


def past_every_timeout(runtime: Any) -> None:
    """Expire as if the clock had passed every call's timeout: a call times out once it has been seen to
    reach the point the test needs, whatever its timeout and however long getting there took."""
    import time

    deadline = runtime.next_deadline()
    runtime.expire(time.monotonic() if deadline is None else max(time.monotonic(), deadline + 1))


@contextlib.contextmanager
def folder_caller(cache: Path, folder: Path, specs: dict[str, ProgramSpec]) -> Iterator[Any]:
    """``run(name, arguments) -> outputs`` for the programs of `folder` (``FOLDER/NAME.cbl``, parsed as `specs`),
    each compiled into `cache` on its first call and run on one worker; skips without cobc."""
    if not HAVE_COBC:
        pytest.skip("GnuCOBOL's cobc is not installed")
    from cobol_mcp.cobol.prepare.cobc import build_module
    from cobol_mcp.cobol.records.codec import decode_outputs, encode_inputs
    from cobol_mcp.cobol.runtime.pool import Runtime

    rt = Runtime(max_workers=1)
    loaded: set[str] = set()

    def run(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        spec = specs[name]
        if name not in loaded:
            module = build_module(folder / f"{name}.cbl", cache, source_format=spec.source_format)
            rt.load(name, module, spec.entry_symbol, [r.size for r in spec.records])
            loaded.add(name)
        result = call_sync(rt, name, encode_inputs(spec, arguments), timeout=20.0)
        assert result.ok, result.error
        outputs: dict[str, Any] = decode_outputs(spec, result.buffers)
        return outputs

    try:
        yield run
    finally:
        rt.close()


def call_tool(server: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One tools/call through a server's catalog, run to completion on the runtime's own loop."""
    box: list[Any] = []
    server.catalog.call(name, arguments, box.append)
    while not box:
        server.runtime.run_once(0.05)
    result: dict[str, Any] = box[0]
    if isinstance(result, Encoded):  # a result with its JSON text made already: it must be that dict's
        assert result.text == dumps(dict(result))
    return result


@pytest.fixture(scope="session")
def c_worker(cache_dir: Path) -> Path:
    """The C worker (runtime/worker.c), built into the session's cache as a server start builds it."""
    from cobol_mcp.cobol.prepare.native_worker import build_worker

    path = build_worker(cache_dir)
    assert path is not None, "the C worker did not build (the warning above says why)"
    return path


@pytest.fixture(params=["python", "c"])
def worker(request: pytest.FixtureRequest) -> str | None:
    """Each worker in turn, as a Runtime takes it: None runs worker.py, a path the C worker."""
    return None if request.param == "python" else str(request.getfixturevalue("c_worker"))
