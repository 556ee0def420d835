"""What a programs folder holds: its sources, the files in it that are not served and why, and, for an
application folder (:mod:`..source.layout`), its program folders with each one's copybook folders.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import COPYBOOK_SUFFIXES, PRECOMPILED_SUFFIXES, SOURCE_SUFFIXES, LinkageError
from ..source.layout import Layout, find_layout, is_flat, kind_of
from .overrides import read_overrides

__all__ = ["folder_layout", "not_served", "program_paths", "sources"]


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in SOURCE_SUFFIXES and p.is_file())


# Files of a programs folder passed over without a word: documentation, data, build files.
_QUIET_SUFFIXES = (".txt", ".md", ".rst", ".adoc", ".html", ".pdf", ".json", ".toml", ".yaml", ".yml", ".csv",
                   ".dat", ".log", ".sh", ".bat", ".py", ".mk", ".xml", ".so", ".dll", ".o", ".exe")  # fmt: skip
_LOOKS_LIKE_COBOL = re.compile(rb"\b(?:IDENTIFICATION|ID)\s+DIVISION\b|\bPROGRAM-ID\b", re.I)


def not_served(folder: Path, by_content: bool = False) -> list[str]:
    """Why each file of ``folder`` that looks like COBOL is not served (programs, copybooks and plain
    documentation or data files need no word): `file:1: not served: why` lines. ``by_content``: a program
    folder of an application, whose files without an ending are programs or copybooks by what they hold."""
    found: list[str] = []
    for path in sorted(folder.iterdir()):
        suffix = path.suffix.lower()
        if not path.is_file() or path.name.startswith(".") or suffix in SOURCE_SUFFIXES + COPYBOOK_SUFFIXES:
            continue
        if by_content and kind_of(path) is not None:
            continue
        if suffix in PRECOMPILED_SUFFIXES:
            found.append(
                f"{path}:1: {PRECOMPILED_SUFFIXES[suffix]}: it needs that precompiler first, which this server "
                "does not run (serve the precompiler's .cbl/.cob output instead)"
            )
        elif suffix not in _QUIET_SUFFIXES and path.name.lower() not in ("readme", "license", "makefile"):
            try:
                with path.open("rb") as handle:
                    head = handle.read(65536)
            except OSError:
                continue
            if b"\0" not in head and _LOOKS_LIKE_COBOL.search(head):
                ending = f"its name ends in {path.suffix!r}" if path.suffix else "its name has no ending"
                found.append(
                    f"{path}:1: looks like a COBOL program, but {ending}: programs are read from "
                    f"{', '.join(SOURCE_SUFFIXES)} files (any case)"
                )
    return found


def folder_layout(folder: Path, settings: dict[str, Any] | None = None) -> Layout:
    """Where the programs folder's programs and copybooks are (:mod:`..source.layout`), with the program
    and copybook folders its cobol-mcp.toml names (``settings``: its [folder] table, read when not given;
    a file that does not read names none)."""
    if settings is None:
        try:
            settings = read_overrides(folder).settings
        except LinkageError:
            settings = {}
    programs, books = tuple(settings.get("programs", ())), tuple(settings.get("copybooks", ()))
    if not programs and is_flat(str(folder)):
        return Layout(folder, True)  # its paths as given, as they always were
    return find_layout(folder.resolve(), programs, books)  # resolved, as the file's folders are


def program_paths(
    layout: Layout, include: tuple[Path, ...]
) -> tuple[list[Path], list[tuple[Path, ...]], list[str], list[str]]:
    """The programs to build and the copybook folders of each: a flat folder's sources, or an application's
    programs, folder by folder, each with the application's copybook folders (its own module's first)
    before ``include``; and the errors (files not served) and warnings (an application without programs)."""
    if layout.flat:
        paths = sources(layout.root)
        return paths, [include] * len(paths), not_served(layout.root), []
    paths, includes, errors = [], [], []
    for where, found in layout.programs.items():
        books = tuple(dict.fromkeys((*layout.include_for(where), *include)))
        paths += found
        includes += [books] * len(found)
        errors += not_served(where, by_content=True)
    warnings = [] if paths else [f"{layout.root}: no COBOL program in it nor in its subfolders: nothing is served"]
    return paths, includes, errors, warnings
