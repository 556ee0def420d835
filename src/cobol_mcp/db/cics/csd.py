"""The transactions CICS has: which program a TRANSID runs, from the application's CSD and cobol-mcp.toml.

A CSD file is DFHCSDUP's input as shops keep it beside their programs (``csd/APP.CSD``): statements, each a
command word (``DEFINE``, ``DELETE``, ``ADD`` …) then ``KEYWORD(value)`` attributes over as many lines as it
takes, ``*`` in column 1 a comment. :func:`read_csd` keeps each ``DEFINE TRANSACTION(t) … PROGRAM(p)``
(not one with ``STATUS(DISABLED)``: CICS would not start it); the other resources it defines are not read
here. :func:`folder_transactions` gathers the CSD files found where an application keeps them (the folder,
its ``csd`` folder, a ``csd`` folder beside it) and the folder's ``[transactions]`` table of
``cobol-mcp.toml`` (``TRANSID = "PROGRAM"``), which wins.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["csd_files", "folder_transactions", "read_csd"]

_ITEM = re.compile(r"([A-Za-z][A-Za-z0-9]*)\s*(\((?:[^()]|\([^()]*\))*\))?")


def read_csd(text: str) -> dict[str, str]:
    """TRANSID -> PROGRAM of the enabled transactions ``text`` (a CSD file) defines, upper case."""
    statements: list[list[tuple[str, str | None]]] = []
    for line in text.splitlines():
        if line.startswith("*") or not line.strip():
            continue
        items = [(m.group(1).upper(), m.group(2)[1:-1].strip() if m.group(2) else None) for m in _ITEM.finditer(line)]
        if not items:
            continue
        if items[0][1] is None or not statements:  # a command word starts a statement
            statements.append([])
        statements[-1] += items
    found: dict[str, str] = {}
    for items in statements:
        if len(items) < 2 or items[0] != ("DEFINE", None) or items[1][0] != "TRANSACTION" or not items[1][1]:
            continue
        attributes = {name: value for name, value in items[2:] if value is not None}
        program = attributes.get("PROGRAM", "").upper()
        if program and attributes.get("STATUS", "ENABLED").upper() != "DISABLED":
            found[items[1][1].upper()] = program
    return found


def csd_files(folder: Path) -> list[Path]:
    """The CSD files where an application keeps them: ``*.csd`` (any case) in ``folder``, in its ``csd`` folder,
    or in a ``csd`` folder beside it."""
    places = [folder, folder / "csd", folder.parent / "csd"]
    found: list[Path] = []
    for place in places:
        if place.is_dir():
            found += sorted(p for p in place.iterdir() if p.suffix.lower() == ".csd" and p.is_file())
    return list(dict.fromkeys(found))


def folder_transactions(folder: Path, table: dict[str, str] | None = None) -> dict[str, str]:
    """TRANSID -> PROGRAM for a folder: its CSD files' transactions, then ``table`` (cobol-mcp.toml's
    ``[transactions]``, checked where it is read) over them."""
    found: dict[str, str] = {}
    for path in csd_files(folder):
        try:
            found.update(read_csd(path.read_text(encoding="latin-1")))
        except OSError:
            continue
    for transid, program in (table or {}).items():
        found[transid.upper()] = program.upper()
    return found
