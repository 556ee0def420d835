"""A program's data items beyond its interface: the 01/77 records of WORKING-STORAGE, LOCAL-STORAGE and
LINKAGE, laid out as :mod:`.layout` lays out the USING records, and the record size of each file of the
FILE SECTION (:func:`file_record_sizes`).

What the SQL runtime needs to know of a host variable (offset, size, USAGE, PICTURE), wherever the
program declares it. Each record is laid out on its own (offsets from its 01 level); a record whose
description the layout cannot read is left out with its reason (:attr:`Storage.unreadable`), so that
only a statement that uses it fails.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .. import LinkageError
from ..source.lines import load
from ..source.units import program_units
from .clauses import Entry, Parser, nest
from .dialect import load_dialect
from .layout import build_record
from .model import Field

__all__ = ["SECTIONS", "Storage", "file_record_sizes", "read_storage", "readable_entries"]

SECTIONS = ("WORKING-STORAGE", "LOCAL-STORAGE", "LINKAGE")


@dataclass
class Storage:
    records: list[tuple[str, Field]] = field(default_factory=list)  # (section, 01/77 record), in source order
    unreadable: dict[str, str] = field(default_factory=dict)  # record name (upper case) -> file:line: reason


def _parser(path: Path, source_format: str | None, include: Iterable[Path], dialect: str | None) -> Parser:
    """The parser of the first program of ``path`` (COPY books expanded; ``include``: more folders)."""
    lines, _, _ = load(Path(path), source_format, include)
    units = program_units(lines)
    if len(units) > 1:
        lines = units[0].lines(lines)
    p = Parser(lines)
    p.dialect = load_dialect(dialect)
    return p


def file_record_sizes(
    path: Path, source_format: str | None = None, include: Iterable[Path] = (), dialect: str | None = None
) -> dict[str, int]:
    """The record size of each FD of the first program of ``path`` (by file name, upper case): its
    largest 01 record, as GnuCOBOL sizes a file's records. A file whose records cannot be read is left out."""
    p = _parser(path, source_format, include, dialect)
    proc = p.find("PROCEDURE", "DIVISION")
    stop = proc if proc >= 0 else len(p.toks)
    start = p.find("FILE", "SECTION")
    if not 0 <= start < stop:
        return {}
    end = next((j for j in range(start + 2, stop) if p.toks[j].up == "SECTION"), stop)
    heads = [j for j in range(start + 2, end) if p.toks[j].up in ("FD", "SD") and j + 1 < end]
    sizes: dict[str, int] = {}
    for at, head in enumerate(heads):
        first = next((j for j in range(head, end) if p.toks[j].kind == "period"), end) + 1
        last = heads[at + 1] if at + 1 < len(heads) else (end - 1 if end < stop else end)
        try:
            entries, broken = readable_entries(p, first, last)
            records = [build_record(p, e) for e in nest(entries, p)]
        except LinkageError:
            continue
        if records and not broken:
            sizes[p.toks[head + 1].text.upper()] = max(record.size for record in records)
    return sizes


def read_storage(
    path: Path, source_format: str | None = None, include: Iterable[Path] = (), dialect: str | None = None
) -> Storage:
    """The records of the first program of ``path`` (COPY books expanded; ``include``: more folders)."""
    p = _parser(path, source_format, include, dialect)
    proc = p.find("PROCEDURE", "DIVISION")
    stop = proc if proc >= 0 else len(p.toks)
    found = Storage()
    for section in SECTIONS:
        start = p.find(section, "SECTION")
        if not 0 <= start < stop:
            continue
        first = start + 2 + (start + 2 < stop and p.toks[start + 2].kind == "period")
        last = next((j for j in range(first, stop) if p.toks[j].up == "SECTION" and j > first), stop)
        if last < stop:  # back up to the section name before "SECTION"
            last -= 1
        entries, broken = readable_entries(p, first, last)
        found.unreadable.update(broken)
        for e in nest(entries, p):
            try:
                found.records.append((section, build_record(p, e)))
            except LinkageError as exc:
                found.unreadable[e.name.upper()] = str(exc)
    return found


def readable_entries(p: Parser, start: int, stop: int) -> tuple[list[Entry], dict[str, str]]:
    """The data description entries from ``start`` to ``stop``, but those of a record with an entry that
    cannot be read, which are left out with the reason (by the record's name)."""
    out: list[Entry] = []
    broken: dict[str, str] = {}
    record: str | None = None  # the 01/77 being read
    begin, skipping = 0, False  # where its entries start in ``out``; whether it failed
    i = start
    while i < stop:
        j = i
        while j < stop and p.toks[j].kind != "period":
            j += 1
        toks = p.toks[i:j]
        if toks and toks[0].text in ("01", "1", "77"):
            record, begin, skipping = (toks[1].text.upper() if len(toks) > 1 else "FILLER"), len(out), False
        if toks and not skipping:
            try:
                out.append(p.entry(toks, p.toks[min(j, stop - 1)]))
            except LinkageError as exc:
                if record is None:  # before any record: the section itself is wrong
                    raise
                broken[record] = str(exc)
                del out[begin:]
                skipping = True
        i = j + 1
    return out, broken
