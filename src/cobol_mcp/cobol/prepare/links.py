"""A folder where libcob finds every served program by its PROGRAM-ID, for CALLs between programs.

A static `CALL 'DATEUTIL'` or a dynamic `CALL WS-PGM-NAME` is resolved by libcob at run time: it
looks for an already loaded entry of that name, then for a file ``DATEUTIL.so`` in each folder of
COB_LIBRARY_PATH. Modules are cached under content-hash folders and named after their source file,
so the workers get one more folder in COB_LIBRARY_PATH: a symbolic link per PROGRAM-ID to its
module. The folder is named by its content, so it is made once and never changed in place. The
Language Environment services (:mod:`..le`: CEEDAYS, CEE3ABD ...) are links there too, to their library
(:mod:`.le_library`), unless a program has their name.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from ..le import SERVICES
from .cache import cache_root
from .le_library import build_library


def call_folder(programs: Iterable[tuple[str, str]], cache_dir: Path | str | None = None) -> str:
    """The folder of ``PROGRAM-ID.so`` links for these (program id, module path) pairs; when two
    programs have the same PROGRAM-ID the first one keeps the name (backends come in their order)."""
    chosen: dict[str, str] = {}
    for program_id, module in programs:
        if program_id and module.endswith(".so"):
            chosen.setdefault(program_id, module)
    services = build_library(cache_dir)  # None: not built (a warning said why)
    for name in SERVICES if services else ():
        chosen.setdefault(name, str(services))
    digest = hashlib.sha256(b"calls-1")
    for program_id, module in sorted(chosen.items()):
        digest.update(f"\0{program_id}\0{module}".encode())
    folder = Path(cache_dir or cache_root()) / "calls" / digest.hexdigest()[:24]
    if folder.is_dir():
        return str(folder)
    temporary = folder.with_name(f".{folder.name}.{os.getpid()}")
    try:
        temporary.mkdir(parents=True, exist_ok=True)
        for program_id, module in chosen.items():
            link = temporary / f"{program_id}.so"
            if not link.is_symlink():
                link.symlink_to(module)
        os.replace(temporary, folder)
    except OSError:
        if not folder.is_dir():  # the cache is read-only: no CALLs between programs
            return ""
        shutil.rmtree(temporary, ignore_errors=True)  # another process made it first
    return str(folder)
