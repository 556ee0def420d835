"""Compile a main program as an executable (`cobc -x`), cached by content hash like the modules.

A console program runs as its own run unit, a fresh process per call, so STOP RUN and the state it
keeps in WORKING-STORAGE end with the call. A precompiled program (EXEC SQL) gets the run unit's
``SQLRT`` entry (:data:`SQL_ENTRY`, ``runtime/rununit_sql.c``) linked in and exported, so its
``CALL 'SQLRT'`` reaches the server (:mod:`..runtime.rununit`). Every executable gets the run unit's
guard (:data:`GUARD`, ``runtime/rununit_guard.c``): it never outlives the server that started it.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from pathlib import Path

from .cache import cache_root
from .cobc import DEFAULT_FLAGS, BuildError, cache_key, run_cobc

EXECUTABLE_FLAGS = ("-x", *DEFAULT_FLAGS)
SQL_ENTRY = Path(__file__).parents[1] / "runtime" / "rununit_sql.c"
GUARD = Path(__file__).parents[1] / "runtime" / "rununit_guard.c"
LINK_FLAGS = ("-Q", "-rdynamic")  # the executable exports SQLRT: libcob's CALL finds it by name


def build_executable(
    source: Path,
    cache_dir: Path | None = None,
    *,
    source_format: str = "free",
    rebuild: bool = False,
    include: Iterable[Path | str] = (),
    extra_flags: tuple[str, ...] = (),
    sql: bool = False,
) -> Path:
    """The path of the executable for `source`, compiling only on a cache miss (``include``: more
    copybook folders, as for modules; ``extra_flags``, such as a dialect's -std=, go to cobc too;
    ``sql``: a precompiled program, linked with the run unit's SQLRT)."""
    source = Path(source).resolve()
    include = tuple(include)
    root = cache_dir or Path(cache_root())
    flags = (*EXECUTABLE_FLAGS, *extra_flags)
    linked = (GUARD, SQL_ENTRY) if sql else (GUARD,)
    if sql:
        flags = (*flags, *LINK_FLAGS)
    after = tuple(str(path) for path in linked)
    keyed = (*flags, *(hashlib.sha256(path.read_bytes()).hexdigest() for path in linked))  # their text, not paths
    target = root / cache_key(source, source_format, keyed, include) / f"{source.stem}.exe"
    if target.exists() and not rebuild:
        return target
    cobc = shutil.which("cobc")
    if cobc is None:
        raise BuildError(f"{source}: cannot compile: GnuCOBOL's cobc is not installed")
    target.parent.mkdir(parents=True, exist_ok=True)
    run_cobc(cobc, source, source_format, [*flags[:1], f"-{source_format}", *flags[1:]], include, target, after)
    return target
