"""The COBOL caller of a program that takes parameters BY VALUE: one per signature, compiled once.

cobc 3.1.2 makes a ``USING BY VALUE`` item a C int argument of the program's entry, converted from the
caller's item by the calling COBOL program (:mod:`..linkage.program` says which items can be passed).
The generic caller (:mod:`.driver`) passes every record BY REFERENCE, so a program with BY VALUE items
gets a caller of its own shape: its LINKAGE declares each BY VALUE item with the program's own PICTURE
and USAGE (the others as one byte: only their address is passed on), and its one CALL says ``BY
REFERENCE`` or ``BY VALUE`` for each, in the program's order. It is called like the generic caller
(count, PROGRAM-POINTER, name, the records BY REFERENCE), so the worker needs nothing else: a BY VALUE
record is the item's bytes in a buffer of the worker's, and the program only ever gets a copy of them.

A ``PIC X ANY LENGTH`` parameter takes its size from the calling program's item, so it needs the same
kind of caller: its record (:mod:`..records.anylen`) is declared as a BINARY-LONG length and the bytes,
and the program is passed ``BY REFERENCE`` the reference modification of the first length bytes; a
length below 1 (never written by the codec) is passed as one byte.

Programs of the same signature share one caller (named by a hash of it, in the cache's ``caller/``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..linkage.model import Field, ProgramSpec
from .driver import NAME_LENGTH, build_generated, wrapped

__all__ = ["build_value_caller", "caller_id", "value_caller_source", "value_signature"]


def _declaration(f: Field) -> str:
    """The item's USAGE (and PICTURE) as the program declares it: a native integer or PIC S9(n) COMP-5."""
    if f.native:
        return f"USAGE {f.native}"
    return f"PIC {f.pic} USAGE COMP-5"


_ANY = "ANY LENGTH "


def value_signature(spec: ProgramSpec) -> tuple[str, ...]:
    """How each record is passed: "REFERENCE", the BY VALUE item's declaration, or "ANY LENGTH n"."""
    return tuple(
        _declaration(r.field) if r.by_value else f"{_ANY}{r.field.any_length}" if r.field.any_length else "REFERENCE"
        for r in spec.records
    )


def _linkage(name: str, how: str) -> list[str]:
    if how.startswith(_ANY):
        return [
            f"       01  {name}.",
            f"           05  {name}-LEN      USAGE BINARY-LONG.",
            f"           05  {name}-TXT      PIC X({how[len(_ANY) :]}).",
        ]
    return [f"       01  {name}              {'PIC X' if how == 'REFERENCE' else how}."]


def _argument(name: str, how: str) -> str:
    if how.startswith(_ANY):
        return f"BY REFERENCE {name}-TXT(1:{name}-LEN)"
    return f"BY {'REFERENCE' if how == 'REFERENCE' else 'VALUE'} {name}"


def caller_id(signature: tuple[str, ...]) -> str:
    """The PROGRAM-ID of the caller of that signature (its C symbol: '-' is '__')."""
    digest = hashlib.sha256("\n".join(signature).encode()).hexdigest()[:10].upper()
    return f"COBOL-MCP-CALLER-V{digest}"


def value_caller_source(signature: tuple[str, ...]) -> str:
    """The caller's fixed-format source for that signature."""
    names = [f"LK-R{n:03d}" for n in range(1, len(signature) + 1)]
    lines = [
        "       IDENTIFICATION DIVISION.",
        f"       PROGRAM-ID. {caller_id(signature)}.",
        "      * Generated: calls a program with BY VALUE parameters as a",
        "      * COBOL caller would.",
        "       DATA DIVISION.",
        "       LINKAGE SECTION.",
        "       01  LK-COUNT             USAGE BINARY-LONG.",
        "       01  LK-ENTRY             USAGE PROGRAM-POINTER.",
        f"       01  LK-NAME              PIC X({NAME_LENGTH}).",
    ]
    for name, how in zip(names, signature, strict=True):
        lines += _linkage(name, how)
    lines.append("       PROCEDURE DIVISION USING LK-COUNT LK-ENTRY LK-NAME")
    lines += wrapped(names, "           ")
    lines[-1] += "."
    lines.append("       0000-MAIN.")
    for name, how in zip(names, signature, strict=True):
        if how.startswith(_ANY):  # (1:0) is no reference modification: one byte at least
            lines += [f"           IF {name}-LEN < 1", f"               MOVE 1 TO {name}-LEN", "           END-IF"]
    lines.append("           CALL LK-ENTRY USING")
    lines += wrapped([_argument(name, how) for name, how in zip(names, signature, strict=True)], "               ")
    lines += [
        "           END-CALL",
        "           IF RETURN-CODE NOT = 0",
        "               CANCEL LK-NAME",
        "           END-IF",
        "           GOBACK.",
    ]
    return "\n".join(lines) + "\n"


def build_value_caller(spec: ProgramSpec, cache_dir: Path | None = None) -> tuple[Path, str]:
    """The module of the caller for the program's signature and its C entry symbol."""
    signature = value_signature(spec)
    name = caller_id(signature)
    module = build_generated(cache_dir, f"{name.lower()}.cob", value_caller_source(signature))
    return module, name.replace("-", "__")
