"""The Language Environment services (:mod:`..le`, its C files) compiled once into the build cache
as a shared library, keyed by its source, as the C worker is (:mod:`.native_worker`).

Built with the C compiler and ``cob-config``'s flags when the call folder is made (:mod:`.links`);
where it cannot be built, one warning says why and a CALL of a service ends as any CALL of a missing
program does.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from ... import log
from ..le import FILES, FOLDER
from .cache import cache_root
from .native_worker import WARNINGS, cob_config, compile_into

BUILD_FORMAT = b"cobol-mcp-le-1"


def library_path(cache_dir: Path | str | None = None, folder: str = FOLDER) -> Path:
    """Where the library built from these exact sources (:data:`..le.FILES` in ``folder``) is kept (it
    may not exist yet)."""
    digest = hashlib.sha256(BUILD_FORMAT)
    for name in FILES:
        data = Path(folder, name).read_bytes()
        digest.update(b"\0%s\0%d\0" % (name.encode(), len(data)))
        digest.update(data)
    return Path(cache_dir or cache_root()) / "le" / digest.hexdigest()[:32] / "cobol-mcp-le.so"


def build_library(cache_dir: Path | str | None = None, folder: str = FOLDER) -> Path | None:
    """The services' shared library, compiled on the first use of a cache; None (after a one-line
    warning on stderr) when there is no C compiler or it fails."""
    try:
        target = library_path(cache_dir, folder)
    except OSError as exc:
        log.warning(f"the Language Environment services' sources cannot be read ({exc.strerror}): CALLs of them fail")
        return None
    if target.exists():
        return target
    compiler = shutil.which(os.environ.get("CC") or "cc")
    if compiler is None:
        log.warning("no C compiler (cc) to build the Language Environment services (CEEDAYS ...): CALLs of them fail")
        return None
    command = [
        compiler, *WARNINGS, "-fPIC", "-shared", *cob_config("--cflags"),
        "-o", "", *(os.path.join(folder, name) for name in FILES if name.endswith(".c")),
        *(cob_config("--libs") or ["-lcob"]),
    ]  # fmt: skip
    return compile_into(target, command, "the Language Environment services", ": CALLs of them fail")
