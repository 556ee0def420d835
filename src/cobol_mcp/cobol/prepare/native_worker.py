"""The C worker (``runtime/worker.c`` and the files beside it, :data:`WORKER_FILES`) compiled once into
the build cache, keyed by its sources.

A worker in C starts in a few milliseconds and runs in a few megabytes, where the Python worker needs
an interpreter for each. It is built with the C compiler (``$CC``, else ``cc``) and the flags of
GnuCOBOL's ``cob-config`` (``-lcob`` without it), when the programs are compiled; the warm start finds
its path in the manifest. Where it cannot be built, one warning says why and the runtime runs the
Python worker (``runtime/worker.py``), which speaks the same frames. ``COBOL_MCP_WORKER_CACHE`` names
a folder where the worker is built and kept instead, whatever the build cache: several caches (servers,
a test run's) then share one build of each version of the sources.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from ... import log
from .cache import cache_root

__all__ = ["WORKER_CACHE_ENV", "WORKER_FILES", "WORKER_FOLDER", "build_worker"]

WORKER_FOLDER = Path(__file__).resolve().parent.parent / "runtime"
# The C worker's sources, all in WORKER_FOLDER: its header and the files compiled and linked together
# (worker.c says which part each one owns). The build key covers every one of them.
WORKER_FILES = (
    "worker.h",
    "worker.c",
    "worker_frames.c",
    "worker_load.c",
    "worker_services.c",
    "worker_storage.c",
    "worker_sql.h",
    "worker_sql.c",
    "worker_sqlite.c",
    "worker_sqlnum.c",
    "worker_sqlvalue.c",
    "worker_pg.h",
    "worker_pg.c",
    "worker_pgrun.c",
    "worker_sqlarith.c",
    "worker_sqlfunc.c",
    "worker_sqldate.c",
    "worker_cics.h",
    "worker_cicsdb.c",
    "worker_cicsfile.c",
    "worker_cicsupdate.c",
    "worker_cicsbrowse.c",
    "worker_cicsres.c",
    "worker_cicscounter.c",
    "worker_unit.c",
)
BUILD_FORMAT = b"cobol-mcp-worker-2"
WORKER_CACHE_ENV = "COBOL_MCP_WORKER_CACHE"  # a folder of worker builds shared by every cache
WARNINGS = ("-O2", "-Wall", "-Wextra")


def worker_path(cache_dir: Path | None = None, folder: Path = WORKER_FOLDER) -> Path:
    """Where the worker built from these exact sources (``WORKER_FILES`` in ``folder``) is kept (it
    may not exist yet): a change to any of them is a new build."""
    shared = os.environ.get(WORKER_CACHE_ENV)
    root = Path(shared) if shared else (Path(cache_dir) if cache_dir else Path(cache_root())) / "worker"
    digest = hashlib.sha256(BUILD_FORMAT)
    for name in WORKER_FILES:
        data = (folder / name).read_bytes()
        digest.update(b"\0%s\0%d\0" % (name.encode(), len(data)))
        digest.update(data)
    return root / digest.hexdigest()[:32] / "cobol-mcp-worker"


def build_worker(cache_dir: Path | None = None, folder: Path = WORKER_FOLDER) -> Path | None:
    """The C worker's executable, compiled on the first use of a cache; None (after a one-line
    warning on stderr) when there is no C compiler or it fails: the Python worker is used then."""
    try:
        target = worker_path(cache_dir, folder)
    except OSError as exc:
        log.warning(f"the C worker's sources cannot be read ({exc.strerror}): using the Python worker")
        return None
    if target.exists():
        return target
    compiler = shutil.which(os.environ.get("CC") or "cc")
    if compiler is None:
        log.warning("no C compiler (cc) to build the C worker: using the Python worker")
        return None
    command = [
        compiler,
        *WARNINGS,
        *cob_config("--cflags"),
        "-rdynamic",  # exports the service entries (SQLRT, CICSRT): COBOL's CALL finds them by name
        "-o",
        "",
        *(str(folder / name) for name in WORKER_FILES if name.endswith(".c")),
        *(cob_config("--libs") or ["-lcob"]),
        "-ldl",  # SQLite is opened with dlopen (worker_sqlite.c): no SQLite headers needed to build
    ]
    return compile_into(target, command, "the C worker", ": using the Python worker", mode=0o755)


def compile_into(target: Path, command: list[str], what: str, then: str = "", mode: int | None = None) -> Path | None:
    """Run the C compiler's `command` (its output file given as ``""``) into a temporary file beside
    `target`, then move it there: `target`, or None after a one-line warning naming `what` (and `then`,
    what follows from it); `mode` is set before the move, so `target` is never there without it. The C
    worker and the Language Environment services are built so."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.close(fd)
    except OSError as exc:
        log.warning(f"{what} cannot be built in {target.parent} ({exc.strerror}){then}")
        return None
    command = [temporary if word == "" else word for word in command]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=300, check=False, stdin=subprocess.DEVNULL
        )
        if done.returncode != 0:
            first = next((line for line in (done.stderr + done.stdout).splitlines() if line.strip()), "")
            log.warning(f"{what} did not compile ({first.strip() or done.returncode}){then}")
            return None
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning(f"{what} could not be built ({exc}){then}")
        return None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


def cob_config(option: str) -> list[str]:
    """``cob-config`` 's flags (GnuCOBOL's own for building against libcob), or none."""
    tool = shutil.which("cob-config")
    if tool is None:
        return []
    try:
        done = subprocess.run([tool, option], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return shlex.split(done.stdout) if done.returncode == 0 else []
