"""Finding COPY books: which folders, and which file a ``COPY name [OF|IN lib]`` means.

Names are matched without regard to case, the way mainframe libraries behave (``COPY CUSTREC.`` finds
``custrec.cpy``, ``COPY custrec`` finds ``CUSTREC.CPY``), with or without one of the copybook endings:
the name as written or with a copybook's ending (.cpy, .copy) in every folder first, then with a
program's (.cbl, .cob ...), so that a program INQCUST.cbl doing ``COPY INQCUST`` gets the copy library's
INQCUST.cpy. A COPY never resolves to the program being read, nor to the user's file when what is read
is our translation of it (:func:`program_files`).
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

from .. import COPYBOOK_SUFFIXES, SOURCE_SUFFIXES, LinkageError, copybook_folders

__all__ = [
    "TRANSLATION_MARK",
    "CopyRef",
    "find_copybook",
    "find_member",
    "foreign_name",
    "locate_copybook",
    "mark_translation",
    "program_files",
    "search_dirs",
    "user_paths",
]


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
    include: bool = False  # an EXEC SQL INCLUDE member (the precompiler's), not a COPY book

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


_PLACE = re.compile(r"(?<![^\s'\"(])(/[^\s:;'\"]+)(?=:)")  # a file's place (`file:12:`, `file: in …`)


def user_paths(text: str) -> str:
    """``text`` (messages) with each ``file:line`` of our translation of a program or of an INCLUDE member
    (see :data:`TRANSLATION_MARK`) naming the user's file instead: the translators keep every line where
    it was."""
    if "/" not in text:
        return text

    def original(m: re.Match[str]) -> str:
        made_from = _user_file(Path(m.group(1))) if os.path.isfile(m.group(1)) else None
        return m.group(1) if made_from is None else str(made_from)

    return _PLACE.sub(original, text)


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


def _in_folder(name: str, folder: Path, endings: tuple[str, ...], exclude: frozenset[Path]) -> Path | None:
    entries = _entries(folder)
    wanted = name.lower()
    for candidate in (wanted + ext for ext in endings):  # "": the name as written
        actual = entries.get(candidate)
        if actual is not None and (folder / actual).is_file() and not _excluded(folder / actual, exclude):
            return folder / actual
    return None


def _excluded(path: Path, exclude: frozenset[Path]) -> bool:
    """Whether ``path`` is one of ``exclude`` or our translation of one (see :data:`TRANSLATION_MARK`)."""
    if not exclude:
        return False
    return path.resolve() in exclude or (
        any(p.name == path.name for p in exclude) and program_files(path)[-1] in exclude
    )


# A copybook's own endings are looked for in every folder before a program's (.cbl, .cob ...): the copy
# library's INQCUST.cpy, not the source library's INQCUST.cbl, is what ``COPY INQCUST`` means.
_BOOK_ENDINGS = ("", *(ext for ext in COPYBOOK_SUFFIXES if ext not in SOURCE_SUFFIXES))
_PROGRAM_ENDINGS = tuple(ext for ext in COPYBOOK_SUFFIXES if ext in SOURCE_SUFFIXES)
# The file our precompiler or translator writes beside its output: the path of the user's program it was
# made from, then a line `BOOK<tab>path` per INCLUDE member written there (:func:`mark_translation`), so
# that a COPY never finds the program itself and messages name the user's files (:func:`user_paths`).
TRANSLATION_MARK = ".cobol-mcp-original"


def mark_translation(folder: Path, original: Path, books: dict[str, Path] | None = None) -> None:
    """Say in ``folder`` that the program written there was made from ``original`` (the user's file), and
    which user's file each of ``books`` (a book written there, by name: an INCLUDE member) was made from."""
    mark = folder / TRANSLATION_MARK
    lines = [str(program_files(original)[-1]), *(f"{name}\t{path.resolve()}" for name, path in (books or {}).items())]
    text = "\n".join(lines)
    try:
        if mark.read_text(encoding="utf-8") == text:
            return
    except OSError:
        pass
    mark.write_text(text, encoding="utf-8")


def _marks(folder: Path) -> list[str]:
    try:
        return (folder / TRANSLATION_MARK).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def program_files(path: Path) -> tuple[Path, ...]:
    """The program being read and, when it is our translation of one, the user's file it was made from
    (resolved): what a COPY never resolves to."""
    found = [Path(path).resolve()]
    marks = _marks(found[0].parent)
    original = marks[0].strip() if marks else ""
    if original and Path(original).name == found[0].name:
        found.append(Path(original).resolve())
    return tuple(found)


def _user_file(path: Path) -> Path | None:
    """The user's file our translated program or book at ``path`` was made from (None: it is none of ours)."""
    files = program_files(path)
    if len(files) > 1:
        return files[1]
    for line in _marks(path.resolve().parent)[1:]:
        name, _, made_from = line.partition("\t")
        if name == path.name and made_from:
            return Path(made_from)
    return None


def _search(name: str, folders: list[Path], exclude: Iterable[Path]) -> Path | None:
    """``name`` in ``folders``: first as written or with a copybook's ending in any of them, then with a
    program's ending; never one of ``exclude`` (the program being read)."""
    skip = frozenset(exclude)
    for endings in (_BOOK_ENDINGS, _PROGRAM_ENDINGS):
        for folder in folders:
            found = _in_folder(name, folder, endings, skip)
            if found is not None:
                return found
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


def find_copybook(name: str, library: str | None, dirs: list[Path], where: str, exclude: Iterable[Path] = ()) -> Path:
    """The file of ``COPY name [OF library]``, or a LinkageError naming the folders searched. ``exclude``:
    files it never is (the program holding the COPY: :func:`program_files`)."""
    folders = _folders(library, dirs)
    found = _search(name, folders, exclude)
    if found is not None:
        return found
    shown = f"{name} OF {library}" if library else name
    itself = " but the program itself, which a COPY never is" if exclude and _search(name, folders, ()) else ""
    raise LinkageError(
        f"{where}: copybook {shown!r} not found{itself} (searched {_searched(folders)}; names compared in any case)"
    )


def locate_copybook(
    name: str, library: str | None, dirs: list[Path], where: str, here: Path, exclude: Iterable[Path] = ()
) -> tuple[Path, str | None]:
    """The file of a COPY statement in a file of folder ``here``, and the base name it was found by
    when ``name`` is written for another machine (None for an ordinary name, or a relative path that
    exists as written). LinkageError naming the file:line, the name and the folders searched."""
    foreign = foreign_name(name)
    if foreign is None:
        return find_copybook(name, library, dirs, where, exclude), None
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
        found = _search(wanted, folders, exclude)
        if found is not None:
            return found, base
    raise LinkageError(
        f'{where}: copybook "{name}" not found: written for another machine, it was looked for by its base '
        f"name {base} (searched {_searched(folders)}; names compared in any case, with or without an ending)"
    )


def find_member(name: str, dirs: list[Path], exclude: Iterable[Path] = ()) -> Path | None:
    """The member of ``EXEC SQL INCLUDE name``: found as a copybook is, or ``NAME.dcl`` (DCLGEN's
    output; names compared in any case); None when there is none."""
    try:
        return find_copybook(name, None, dirs, "", exclude)
    except LinkageError:
        pass
    skip = frozenset(exclude)
    for folder in dirs:
        found = _in_folder(name, folder, (".dcl",), skip)
        if found is not None:
            return found
    return None
