"""The programs of a folder that a program LINKs to, for the direction analysis (see :mod:`..linkage.linked`).

:func:`following` sets the resolver the parse asks for a target's effects: the one source of the
caller's folder named like the program (any case, a COBOL source suffix), translated first when it has
EXEC CICS, parsed with the same resolver (a target that LINKs on is followed too; a cycle, a missing or
unreadable target gives None: the LINK keeps today's conservative rule). Within a process each target is
parsed once. :func:`reached_stamp` names every program of the folder a source may follow (its name written
in the source, and so on from there) by content: part of the caller's spec cache key, so a changed target
derives the caller again.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .. import SOURCE_SUFFIXES, LinkageError
from ..linkage.linked import FOLLOW, Effects
from ..linkage.program import parse_programs
from .cobc import cache_key

__all__ = ["following", "reached_stamp"]

# a source -> the text to parse for it, its format, copybook folders and code columns
Translate = Callable[[Path], tuple[Path, str | None, tuple[Path, ...], int]]

_WORD = re.compile(r"[A-Z0-9$#@][A-Z0-9$#@-]*")
_LOCK = threading.RLock()
_MEMO: dict[tuple[str, str], Effects | None] = {}
_RUNNING = threading.local()


def _siblings(folder: Path) -> dict[str, Path]:
    found: dict[str, list[Path]] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in SOURCE_SUFFIXES and path.is_file():
            found.setdefault(path.stem.upper(), []).append(path)
    return {name: paths[0] for name, paths in found.items() if len(paths) == 1}


def _reached(source: Path) -> list[Path]:
    siblings = _siblings(source.parent)
    todo, seen = [source], {source}
    while todo:
        text = todo.pop().read_text("latin-1").upper()
        for word in sorted(set(_WORD.findall(text)) & siblings.keys()):
            path = siblings[word]
            if path not in seen:
                seen.add(path)
                todo.append(path)
    return sorted(seen - {source})


def reached_stamp(source: Path, source_format: str, include: tuple[Path, ...]) -> tuple[str, ...]:
    """The content keys of the folder's programs ``source`` may follow."""
    try:
        return tuple(f"{p.name}:{cache_key(p, source_format, (), include)}" for p in _reached(source))
    except OSError:
        return ()


@contextmanager
def following(source: Path, translate: Translate, dialect: str) -> Iterator[None]:
    """While parsing ``source``: LINK targets of its folder are followed (``translate``: the source to parse
    for a program, its format, copybook folders and code columns)."""
    siblings = _siblings(source.parent)

    def effects(name: str) -> Effects | None:
        path = siblings.get(name)
        running: list[Path] = getattr(_RUNNING, "stack", [])
        if path is None or path in running or path == source:
            return None
        try:
            key = cache_key(path, "auto", (dialect, *reached_stamp(path, "auto", ())), ())
        except OSError:
            return None
        with _LOCK:
            if (str(path), key) in _MEMO:
                return _MEMO[(str(path), key)]
        _RUNNING.stack = [*running, source, path]
        found: Effects | None = {}
        try:
            parsed, fmt, books, columns = translate(path)
            with following(path, translate, dialect):
                parse_programs(parsed, fmt, books, dialect, columns, found)
        except (LinkageError, OSError, RecursionError):
            found = None
        finally:
            _RUNNING.stack = running
        found = found or None
        with _LOCK:
            _MEMO[(str(path), key)] = found
        return found

    token = FOLLOW.set(effects)
    try:
        yield
    finally:
        FOLLOW.reset(token)
