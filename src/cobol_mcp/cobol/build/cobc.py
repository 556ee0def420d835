"""Compile COBOL sources to loadable modules with `cobc -m`, cached by content hash.

The cache key covers the source, every copybook it can see and the compiler flags, so the second
start of the server runs no compiler at all. Modules are written under a temporary name and
renamed into place, so concurrent starts never see half a module.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .. import COPYBOOK_SUFFIXES
from .cache import cache_root

CACHE_FORMAT = b"cobol-mcp-build-1"
# -debug turns runtime checks on (subscripts, numeric data, ...): a bad subscript becomes a clear
# runtime error in the worker instead of silent memory corruption.
DEFAULT_FLAGS = ("-debug",)


class BuildError(Exception):
    """cobc failed; the message holds its diagnostics as `file:line: message` lines."""


def copybook_dirs(source: Path) -> list[Path]:
    folder = source.parent
    return [folder, folder / "copybooks"]


def cache_key(source: Path, source_format: str, flags: Iterable[str] = DEFAULT_FLAGS) -> str:
    digest = hashlib.sha256(CACHE_FORMAT)
    digest.update(f"{source_format}\0{' '.join(flags)}\0{source.name}\0".encode())
    digest.update(source.read_bytes())
    for folder in copybook_dirs(source):
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.suffix.lower() in COPYBOOK_SUFFIXES and path != source and path.is_file():
                    digest.update(f"\0{path.name}\0".encode())
                    digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def module_path(
    source: Path, source_format: str = "free", cache_dir: Path | None = None, flags: Iterable[str] = DEFAULT_FLAGS
) -> Path:
    """Where the module for this exact source would be (it may not exist yet)."""
    root = cache_dir or Path(cache_root())
    return root / cache_key(source, source_format, flags) / f"{source.stem}.so"


def build_module(
    source: Path,
    cache_dir: Path | None = None,
    *,
    source_format: str = "free",
    flags: Iterable[str] = DEFAULT_FLAGS,
    rebuild: bool = False,
) -> Path:
    """Return the path of the compiled module for `source`, compiling only on a cache miss."""
    source = Path(source).resolve()
    flags = tuple(flags)
    target = module_path(source, source_format, cache_dir, flags)
    if target.exists() and not rebuild:
        return target
    cobc = shutil.which("cobc")
    if cobc is None:
        raise BuildError(
            f"{source}: cannot compile: GnuCOBOL's cobc is not installed "
            "(Debian/Ubuntu: apt-get install gnucobol3; Fedora: dnf install gnucobol; macOS: brew install gnucobol)"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{source.stem}.", suffix=".so", dir=target.parent)
    os.close(fd)
    command = [cobc, "-m", f"-{source_format}", *flags, "-o", temporary]
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
            print(done.stderr.rstrip(), file=sys.stderr)  # warnings belong on stderr, never stdout
        os.replace(temporary, target)
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{source}: cobc did not finish within 300 s") from exc
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


_DIAGNOSTIC = re.compile(r"^[^:\n]+:\d+: ")


def _diagnostics(output: str, source: Path) -> str:
    """cobc's messages as `file:line: message` lines (all of its output if it wrote none such)."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    located = [line for line in lines if _DIAGNOSTIC.match(line)]
    return "\n".join(located or [f"{source}: {line}" for line in lines])
