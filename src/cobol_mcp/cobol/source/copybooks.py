"""Finding COPY books: which folders, and which file a ``COPY name [OF|IN lib]`` means.

Names are matched without regard to case, the way mainframe libraries behave (``COPY CUSTREC.`` finds
``custrec.cpy``, ``COPY custrec`` finds ``CUSTREC.CPY``), with or without one of the copybook endings.
``COPY name OF lib`` looks in a folder ``lib`` (any case) under each search folder first, then in the
search folders themselves.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import COPYBOOK_SUFFIXES, LinkageError, copybook_folders

__all__ = ["CopyRef", "find_copybook", "search_dirs"]


@dataclass(frozen=True)
class CopyRef:
    """One COPY statement: the name and library as written, and the file it resolved to."""

    name: str
    library: str | None
    path: Path


def search_dirs(source: Path, include: Iterable[Path | str] = ()) -> list[Path]:
    """The folders a program's copybooks are looked up in, in order (only those that exist)."""
    return [Path(folder) for folder in copybook_folders(str(Path(source).parent), [str(p) for p in include])]


def _entries(folder: Path) -> dict[str, str]:
    """Lower-case name -> actual name of the entries of a folder (the first in sorted order wins)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return {}
    found: dict[str, str] = {}
    for name in names:
        found.setdefault(name.lower(), name)
    return found


def _in_folder(name: str, folder: Path) -> Path | None:
    entries = _entries(folder)
    wanted = name.lower()
    for candidate in (wanted, *(wanted + ext for ext in COPYBOOK_SUFFIXES)):
        actual = entries.get(candidate)
        if actual is not None and (folder / actual).is_file():
            return folder / actual
    return None


def find_copybook(name: str, library: str | None, dirs: list[Path], where: str) -> Path:
    """The file of ``COPY name [OF library]``, or a LinkageError naming the folders searched."""
    folders: list[Path] = []
    for folder in dirs:
        if library:
            actual = _entries(folder).get(library.lower())
            if actual is not None and (folder / actual).is_dir():
                folders.append(folder / actual)
    folders += dirs
    for folder in dict.fromkeys(folders):
        found = _in_folder(name, folder)
        if found is not None:
            return found
    searched = ", ".join(dict.fromkeys(str(d) for d in folders))
    shown = f"{name} OF {library}" if library else name
    raise LinkageError(f"{where}: copybook {shown!r} not found (searched {searched}; names compared in any case)")
