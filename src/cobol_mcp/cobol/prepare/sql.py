"""Programs with EXEC SQL: precompiled into the build cache, where cobc compiles the result.

:func:`precompile` runs :func:`..precompile.generate.generate_file` on a program and writes its text
(same file name, so the module keeps the program's name) and its copybooks (the SQLCA, the INCLUDE
members) into a folder of the build cache named after the source's cache key; cobc then compiles that
file with the folder first among its copybook folders, then the program's own, and with
``-ftext-column=255`` where the generated text needs it. A program whose SQL the precompiler cannot
carry (CONNECT, a block without END-EXEC, an INCLUDE member not found …) is refused with every
problem's file:line and reason. :func:`sql_entry` is what the manifest keeps of it.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import LinkageError, copybook_folders
from ..precompile.generate import generate_file
from ..precompile.scan import SqlStatement
from ..source.copybooks import mark_translation

if TYPE_CHECKING:
    from .entries import SqlEntry

__all__ = ["WIDE_FLAG", "Precompiled", "has_sql", "precompile", "sql_entry", "write_text"]

WIDE_FLAG = "-ftext-column=255"
_SQL = re.compile(rb"\bEXEC\s+SQL\b", re.I)


@dataclass(frozen=True)
class Precompiled:
    source: Path  # the generated program, in a folder of its own with its copybooks
    include: tuple[Path, ...]  # the copybook folders cobc and the parser need for it, in order
    flags: tuple[str, ...]  # cobc flags it needs (WIDE_FLAG)
    statements: tuple[SqlStatement, ...]


def sql_entry(sql: Precompiled, source: Path, source_format: str, dialect: str, folder: Path | None = None) -> SqlEntry:
    """The ``sql`` of a precompiled program's manifest entry (:class:`.entries.SqlEntry`); ``folder``: its
    application folder, where its database is (default: the source's folder)."""
    return {
        "source": str(sql.source), "original": str(source), "format": source_format,
        "include": [str(p) for p in sql.include], "dialect": dialect, "folder": str(folder or source.parent),
    }  # fmt: skip


def has_sql(source: Path) -> bool:
    """Whether the file has ``EXEC SQL`` at all (a mention in a comment only costs a precompile)."""
    return _SQL.search(source.read_bytes()) is not None


def precompile(
    source: Path, source_format: str, include: tuple[Path, ...], folder: Path, wide: bool = False
) -> Precompiled:
    """``source`` precompiled into ``folder`` (see the module); LinkageError when it cannot be. ``wide``:
    its code runs to column 255 (the EXEC CICS translation of a program with both)."""
    generated, scan = generate_file(source, source_format, include, wide)
    if scan.problems:
        raise LinkageError("; ".join(f"{p.where}: {p.reason}" for p in scan.problems))
    books = write_generated(source, folder, generated.text, generated.copybooks, include)
    members = {f"{s.name}.sqlinc": s.member for s in scan.statements if s.kind == "INCLUDE" and s.name and s.member}
    mark_translation(folder, source, members)  # a cobc message in a member names the user's member
    flags = (WIDE_FLAG,) if generated.wide else ()
    return Precompiled(folder / source.name, books, flags, tuple(scan.statements))


def write_generated(
    source: Path, folder: Path, text: str, copybooks: dict[str, str], include: tuple[Path, ...]
) -> tuple[Path, ...]:
    """Write a precompiler's or translator's ``text`` of ``source`` into ``folder`` (as ``source.name``) with
    the ``copybooks`` it made, in the source's own encoding; the copybook folders cobc then searches, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    mark_translation(folder, source)  # a COPY of the program's own name never finds this copy of it
    try:  # written as the source was: its PIC X literals keep their bytes
        source.read_bytes().decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        encoding = "latin-1"
    write_text(folder / source.name, text, encoding)
    for name, book in copybooks.items():
        write_text(folder / name, book, encoding)
    own = tuple(Path(p) for p in copybook_folders(str(source.parent)))
    return (folder, *own, *(p for p in include if p not in own))


def write_text(path: Path, text: str, encoding: str) -> None:
    """Write ``text`` unless the file holds it already (cobc's cache key is the file's content)."""
    data = text.encode(encoding, "replace")
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.write_bytes(data)
    temporary.replace(path)
