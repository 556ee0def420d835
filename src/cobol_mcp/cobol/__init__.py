"""COBOL behind one boundary: reading source, the LINKAGE record model, the JSON<->record codec,
building with cobc, and the worker runtime.

Owns: top to bottom, :mod:`.tool` (a COBOL program as a catalog tool), :mod:`.prepare` and
:mod:`.runtime`, :mod:`.records`, :mod:`.linkage`, :mod:`.source`, :mod:`.le` (the Language
Environment services programs CALL, in C); this module holds only the shared
vocabulary (file endings, plain decimal text, the error for a program whose interface cannot be read).
May import: :mod:`cobol_mcp.catalog`, :mod:`cobol_mcp.protocol`, :mod:`cobol_mcp.selectloop`,
:mod:`cobol_mcp.log`. Nothing outside :mod:`.runtime` loads libcob.
"""

import os
from collections.abc import Iterable

# File name endings, compared in lower case (PAYROLL.CBL and payroll.cbl alike). Defined here, the
# lightest module of the package, because the start-up path needs them without the parser.
# .sqb: DB2 for Linux, UNIX and Windows' name for COBOL with embedded SQL (its `db2 prep` input), read
# like any source (EXEC SQL is precompiled by the server whatever the ending).
SOURCE_SUFFIXES = (".cob", ".cbl", ".cobol", ".cblle", ".sqb")
COPYBOOK_SUFFIXES = (".cpy", ".copy", *SOURCE_SUFFIXES)
# COBOL that needs a precompiler first (Pro*COBOL, DB2, CICS): never compiled as is, always explained.
PRECOMPILED_SUFFIXES = {
    ".pco": "a Pro*COBOL source (Oracle's procob precompiler)",
    ".pcob": "a Pro*COBOL source (Oracle's procob precompiler)",
    ".ccp": "a CICS COBOL source (the CICS translator)",
}
# Sibling folders searched for copybooks (compared in lower case), besides the program's folder and its
# copybooks/ folder: ../copybook, ../copybooks, ../cpy, ../copy, ../copylib.
SIBLING_COPYBOOK_FOLDERS = ("copybook", "copybooks", "cpy", "copy", "copylib")


def copybook_folders(source_folder: str, extra: Iterable[str] = ()) -> list[str]:
    """Where a program of ``source_folder`` finds its copybooks, first match wins: the folder itself, its
    copybooks/ folder, the usual sibling folders (names compared in lower case), then ``extra``
    (--copybooks). Only folders that exist; standard library only (the start-up path uses it)."""
    folder = os.path.abspath(source_folder)
    found = [folder, os.path.join(folder, "copybooks")]
    parent = os.path.dirname(folder)
    try:
        siblings = {name.lower(): name for name in sorted(os.listdir(parent))}
    except OSError:
        siblings = {}
    for wanted in SIBLING_COPYBOOK_FOLDERS:
        name = siblings.get(wanted)
        if name is not None:
            found.append(os.path.join(parent, name))
    found += [os.path.abspath(path) for path in extra]
    unique = dict.fromkeys(path for path in found if os.path.isdir(path))
    return list(unique)


def is_plain_decimal(text: str) -> bool:
    """`123`, `-123.45`, `.5`, `5.`: ASCII digits with at most one point and a leading minus.
    The usual way numbers arrive; such text is its own exact value, read without a Decimal."""
    return plain_parts(text) is not None


def plain_parts(text: str) -> tuple[bool, str, str] | None:
    """Plain decimal text (see :func:`is_plain_decimal`) as (negative, whole digits, fraction digits);
    None for any other text."""
    negative = text[:1] == "-"
    whole, _, fraction = (text[1:] if negative else text).partition(".")
    digits = whole + fraction
    return (negative, whole, fraction) if digits.isdigit() and digits.isascii() else None


class LinkageError(Exception):
    """A program's interface cannot be derived; the message reads "file:line: what is wrong"."""
