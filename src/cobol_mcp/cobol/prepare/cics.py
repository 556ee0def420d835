"""Programs with EXEC CICS: translated into the build cache, where the parser and cobc read the result.

:func:`translate` runs :func:`..precompile.cics_generate.generate_cics_file` on a program and writes
its text (same file name, so the module keeps the program's name) with its copybooks (our DFHEIBLK,
DFHAID, DFHBMSCA, and the ``<stem>.cicsws`` book of the command descriptors) into a folder of the
build cache named after the source's cache key. The translated program is ``PROCEDURE DIVISION USING
DFHEIBLK DFHCOMMAREA``: its spec is read from that text, and :func:`runtime_fills_eib` takes the EIB
out of the tool's arguments and results (the runtime fills it). What the translator will not carry
(BMS and terminal commands, START/RETRIEVE, an unknown option …) refuses the program with every
problem's file:line and reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import LinkageError
from ..linkage.frozen import replace
from ..linkage.model import ProgramSpec
from ..precompile.cics_books import STANDARD_BOOKS
from ..precompile.cics_generate import generate_cics_file
from ..source.copybooks import mark_translation
from .sql import WIDE_FLAG, write_generated, write_text

__all__ = ["EIB_RECORD", "Translated", "has_cics", "runtime_fills_eib", "translate"]

EIB_RECORD = "DFHEIBLK"
_CICS = re.compile(rb"\bEXEC\s+CICS\b", re.I)


@dataclass(frozen=True)
class Translated:
    source: Path  # the translated program, in a folder of its own with its copybooks
    include: tuple[Path, ...]  # the copybook folders cobc and the parser need for it, in order
    flags: tuple[str, ...]  # cobc flags it needs (WIDE_FLAG)
    original: Path  # the user's source
    source_format: str  # the original's, which the translation keeps ("fixed" or "free")
    commands: tuple[str, ...]  # the program's CICS commands, in source order ("READ", "WRITEQ TS" …)


def has_cics(source: Path) -> bool:
    """Whether the file has ``EXEC CICS`` at all (a mention in a comment only costs a translation)."""
    return _CICS.search(source.read_bytes()) is not None


def translate(source: Path, source_format: str, include: tuple[Path, ...], folder: Path) -> Translated | None:
    """``source`` translated into ``folder`` (see the module); LinkageError when it cannot be; None when its
    code has no EXEC CICS (only a comment or a literal names one: the program is no CICS program). IBM's
    books (DFHAID …) are written there first: the program's COPY of them is read while the translator
    decides whether it has a DFHCOMMAREA."""
    folder.mkdir(parents=True, exist_ok=True)
    mark_translation(folder, source)
    for name, text in STANDARD_BOOKS.items():
        write_text(folder / f"{name}.cpy", text, "utf-8")
    generated, scan = generate_cics_file(source, source_format, (*include, folder))
    if scan.problems:
        raise LinkageError("; ".join(f"{p.where}: {p.reason}" for p in scan.problems))
    if not scan.commands:
        return None
    books = write_generated(source, folder, generated.text, generated.copybooks, include)
    flags = (WIDE_FLAG,) if generated.wide else ()
    return Translated(folder / source.name, books, flags, source, source_format, tuple(c.name for c in scan.commands))


def runtime_fills_eib(spec: ProgramSpec) -> ProgramSpec:
    """The spec with its DFHEIBLK parameter neither an argument nor a result: the runtime fills it."""
    records = tuple(replace(r, direction="none") if r.name.upper() == EIB_RECORD else r for r in spec.records)
    return replace(spec, records=records)
