"""Compile a main program as an executable (`cobc -x`), cached by content hash like the modules.

A console program runs as its own run unit, a fresh process per call, so STOP RUN and the state it
keeps in WORKING-STORAGE end with the call.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .cache import cache_root
from .cobc import DEFAULT_FLAGS, BuildError, cache_key, copybook_dirs

EXECUTABLE_FLAGS = ("-x", *DEFAULT_FLAGS)
_DIAGNOSTIC = re.compile(r"^[^:\n]+:\d+: ")


def _diagnostics(output: str, source: Path) -> str:
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    located = [line for line in lines if _DIAGNOSTIC.match(line)]
    return "\n".join(located or [f"{source}: {line}" for line in lines])


def build_executable(
    source: Path,
    cache_dir: Path | None = None,
    *,
    source_format: str = "free",
    rebuild: bool = False,
    extra_flags: tuple[str, ...] = (),
) -> Path:
    """The path of the executable for `source`, compiling only on a cache miss; ``extra_flags`` (such as
    a dialect's -std=) are passed to cobc too."""
    source = Path(source).resolve()
    root = cache_dir or Path(cache_root())
    flags = (*EXECUTABLE_FLAGS, *extra_flags)
    target = root / cache_key(source, source_format, flags) / f"{source.stem}.exe"
    if target.exists() and not rebuild:
        return target
    cobc = shutil.which("cobc")
    if cobc is None:
        raise BuildError(f"{source}: cannot compile: GnuCOBOL's cobc is not installed")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{source.stem}.", suffix=".exe", dir=target.parent)
    os.close(fd)
    command = [cobc, *flags[:1], f"-{source_format}", *flags[1:], "-o", temporary]
    for folder in copybook_dirs(source):
        if folder.is_dir():
            command += ["-I", str(folder)]
    command.append(str(source))
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=300, check=False, stdin=subprocess.DEVNULL
        )
        if done.returncode != 0:
            raise BuildError(_diagnostics(done.stdout + done.stderr, source) or f"{source}: cobc failed")
        if done.stderr.strip():
            print(done.stderr.rstrip(), file=sys.stderr)
        os.replace(temporary, target)
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{source}: cobc did not finish within 300 s") from exc
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target
