"""Finding COPY books: which folders, and which file a ``COPY name [OF|IN lib]`` means.

Names are matched without regard to case, the way mainframe libraries behave (``COPY CUSTREC.`` finds
``custrec.cpy``, ``COPY custrec`` finds ``CUSTREC.CPY``), with or without one of the copybook endings.
``COPY name OF lib`` looks in a folder ``lib`` (any case) under each search folder first, then in the
search folders themselves.

A name written for another machine (:func:`foreign_name`) - a path such as ``C:\\PgmCobols\\FD\\FDCliente.cpy``,
``/u/prod/copy/CUSTREC.cpy`` or ``..\\copy\\x.cbl``, or a member of a library such as
``DD:SYSLIB(MEMBER)`` or ``SYSLIB(MEMBER)`` - is found by its base name (the member, for a library;
its ending may differ too) by the same rules, with a warning naming both (:attr:`CopyRef.warning`);
a relative path that exists as written, from the folder of the file holding the COPY, is used as is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import COPYBOOK_SUFFIXES, LinkageError, copybook_folders

__all__ = ["CopyRef", "find_copybook", "foreign_name", "locate_copybook", "search_dirs"]


@dataclass(frozen=True)
class CopyRef:
    """One COPY statement: the name and library as written, the file it resolved to, where the
    statement is, and the base name it was found by when the name is a path of another machine."""

    name: str
    library: str | None
    path: Path
    source: Path | None = None  # the file holding the COPY statement (the program or a copybook)
    line: int = 0  # its line there
    base: str | None = None  # the name looked for, for a name written for another machine

    @property
    def foreign(self) -> bool:
        return foreign_name(self.name) is not None

    @property
    def warning(self) -> str | None:
        """`file:line: COPY "C:\\...\\X.cpy" ...: using /path/X.cpy`, for a book found by its base name."""
        if self.base is None:
            return None
        return (
            f'{self.source}:{self.line}: COPY "{self.name}" names a file of another machine: using {self.path} '
            f"(found by its base name {self.base})"
        )


_LIBRARY_MEMBER = re.compile(r"^([^()\s]+)\(([^()\s]+)\)$")
_PREFIX = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,7}:")  # a drive (C:) or a DD name (DD:, SYSLIB:)


def foreign_name(name: str) -> tuple[str, str | None] | None:
    """(base name, library) of a COPY name written for another machine: the last part of a path
    (``/`` or ``\\``), without a drive or ``DD:`` prefix; for ``LIB(MEMBER)`` the member and LIB. None
    for an ordinary name."""
    if not any(mark in name for mark in "/\\:("):
        return None
    base = re.split(r"[/\\]", name)[-1]
    base = _PREFIX.sub("", base, count=1)
    library = None
    member = _LIBRARY_MEMBER.match(base)
    if member:
        library, base = member.groups()
    if not base.strip() or base in (".", "..") or any(mark in base for mark in ":()"):
        return None
    return base, library


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


def _folders(library: str | None, dirs: list[Path]) -> list[Path]:
    folders: list[Path] = []
    for folder in dirs:
        if library:
            actual = _entries(folder).get(library.lower())
            if actual is not None and (folder / actual).is_dir():
                folders.append(folder / actual)
    return list(dict.fromkeys([*folders, *dirs]))


def _searched(folders: list[Path]) -> str:
    return ", ".join(dict.fromkeys(str(d) for d in folders))


def find_copybook(name: str, library: str | None, dirs: list[Path], where: str) -> Path:
    """The file of ``COPY name [OF library]``, or a LinkageError naming the folders searched."""
    folders = _folders(library, dirs)
    for folder in folders:
        found = _in_folder(name, folder)
        if found is not None:
            return found
    shown = f"{name} OF {library}" if library else name
    raise LinkageError(
        f"{where}: copybook {shown!r} not found (searched {_searched(folders)}; names compared in any case)"
    )


def locate_copybook(
    name: str, library: str | None, dirs: list[Path], where: str, here: Path
) -> tuple[Path, str | None]:
    """The file of a COPY statement in a file of folder ``here``, and the base name it was found by
    when ``name`` is written for another machine (None for an ordinary name, or a relative path that
    exists as written). LinkageError naming the file:line, the name and the folders searched."""
    foreign = foreign_name(name)
    if foreign is None:
        return find_copybook(name, library, dirs, where), None
    if "\\" not in name and ":" not in name and "(" not in name and not os.path.isabs(name):
        written = here / name
        if written.is_file():
            return written, None
    base, member_of = foreign
    library = library or member_of
    folders = _folders(library, dirs)
    stem, ending = os.path.splitext(base)
    names = [base, stem] if ending.lower() in COPYBOOK_SUFFIXES and stem else [base]
    for wanted in names:
        for folder in folders:
            found = _in_folder(wanted, folder)
            if found is not None:
                return found, base
    raise LinkageError(
        f'{where}: copybook "{name}" not found: written for another machine, it was looked for by its base '
        f"name {base} (searched {_searched(folders)}; names compared in any case, with or without an ending)"
    )
