"""Where an application's programs and copybooks are: a programs folder laid out as mainframe projects are.

A folder with COBOL sources of its own (``*.cbl``, ``*.cob``, ... at its top) is *flat*: its programs are
those files, and its copybooks are found as before (:func:`cobol_mcp.cobol.copybook_folders`). A folder
without any is an *application folder* (``cbl/``, ``cpy/``, ``dcl/``, ``jcl/``, ``data/`` ..., also one
level of modules deeper, such as ``app-x/cbl``): its subfolders, to :data:`DEPTH` levels, are sorted by
what their files hold:

- a *program* is a file ending in a source ending (:data:`cobol_mcp.cobol.SOURCE_SUFFIXES`, any case) or
  with no ending, whose code has an IDENTIFICATION (or ID) DIVISION and a PROGRAM-ID paragraph;
- a *copybook* is a file ending in ``.cpy``, ``.copy`` or ``.dcl`` (a DCLGEN member), a source-ending file
  that is not a program, or a file with no ending whose first line of code is a data description (a level
  number) or an EXEC SQL block;
- a folder with programs is a program folder; one with copybooks only, a copybook folder (a program folder
  with copybooks is both); any other is passed over, and said with what it seems to hold (JCL, BMS maps,
  data ...).

All the program folders are one application: every program finds its copybooks in its own folder and
the usual places beside it first, then in the application's copybook folders, the nearest first (those
of its own module before the shared ones). ``[folder] programs = [...]`` in ``cobol-mcp.toml`` names
the program folders instead; its ``copybooks`` add copybook folders. Standard library only.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import SOURCE_SUFFIXES

__all__ = ["DEPTH", "Layout", "find_layout", "is_flat"]

DEPTH = 3  # folders looked into below the application folder (app/module/cbl: 2)
COPYBOOK_ENDINGS = (".cpy", ".copy", ".dcl")  # always copybooks (.dcl: DCLGEN members, for EXEC SQL INCLUDE)
_HEAD = 65536  # bytes of a file read to tell what it is
_ID_DIVISION = re.compile(r"^\s*(?:IDENTIFICATION|ID)\s+DIVISION\b", re.I)
_PROGRAM_ID = re.compile(r"^\s*PROGRAM-ID\b", re.I)
_DATA_START = re.compile(r"^\s*(?:0?[1-9]|[1-4][0-9]|66|77|88)\s+[A-Z0-9-]+|^\s*EXEC\s+SQL\b", re.I)
# What a folder passed over seems to hold, by its name (lower case)
_KNOWN = {
    "jcl": "JCL", "cntl": "JCL", "jcllib": "JCL", "proc": "JCL procedures", "procs": "JCL procedures",
    "proclib": "JCL procedures", "bms": "BMS map sources: screens are not served yet",
    "maclib": "assembler macros", "asm": "assembler", "data": "data files", "csd": "CICS resource definitions",
    "ddl": "DB2 DDL: run it with `db apply`", "ctl": "control cards", "ims": "IMS definitions",
    "scheduler": "job scheduler definitions", "catlg": "catalog listings",
}  # fmt: skip


@dataclass
class Layout:
    """An application folder's program and copybook folders, in order, and the folders passed over."""

    root: Path
    flat: bool  # sources at its top: served as one folder, as it always was
    programs: dict[Path, list[Path]] = field(default_factory=dict)  # program folder -> its programs, sorted
    copybooks: dict[Path, int] = field(default_factory=dict)  # copybook folder -> how many copybooks
    ignored: list[tuple[Path, str]] = field(default_factory=list)  # (folder, what it seems to hold)
    named: bool = False  # the program folders are cobol-mcp.toml's [folder] programs

    def sources(self) -> list[Path]:
        """Every program of the application, folder by folder."""
        return [source for found in self.programs.values() for source in found]

    def include_for(self, folder: Path) -> tuple[Path, ...]:
        """The application's copybook folders for a program of ``folder``: those of its own module first
        (the most path in common with it), then the shallower ones; itself left out (it comes first anyway)."""

        def nearness(book: Path) -> tuple[int, int]:
            shared = len(os.path.commonpath([book, folder]).split(os.sep))
            return (-shared, len(book.parts))

        return tuple(sorted((book for book in self.copybooks if book != folder), key=nearness))

    def report(self) -> list[str]:
        """What was found where, for stderr and `check` (empty for a flat folder)."""
        if self.flat:
            return []

        def shown(path: Path) -> str:
            return path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else str(path)

        how = "named by cobol-mcp.toml's [folder] programs" if self.named else "found by what their files hold"
        lines = [f"{self.root}: an application folder, its folders {how}:"]
        if self.programs:
            lines.append("  programs from " + ", ".join(f"{shown(p)} ({len(s)})" for p, s in self.programs.items()))
        else:
            lines.append(f"  no COBOL program in it nor in its subfolders ({DEPTH} levels down)")
        if self.copybooks:
            lines.append("  copybooks from " + ", ".join(f"{shown(p)} ({n})" for p, n in self.copybooks.items()))
        if self.ignored:
            lines.append("  not COBOL, passed over: " + ", ".join(f"{shown(p)} ({why})" for p, why in self.ignored))
        return lines


def is_flat(folder: str) -> bool:
    """Whether a programs folder has COBOL sources at its top (served as it always was)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return True
    return any(os.path.splitext(name)[1].lower() in SOURCE_SUFFIXES for name in names)


def find_layout(root: Path, programs: tuple[Path, ...] = (), copybooks: tuple[Path, ...] = ()) -> Layout:
    """The layout of the programs folder ``root``: flat, or an application whose folders are found by
    content (``programs``: the program folders cobol-mcp.toml names instead; ``copybooks``: more copybook
    folders it names, which are not passed over)."""
    if not programs and is_flat(str(root)):
        return Layout(root, True)
    layout = Layout(root, False, named=bool(programs))
    if programs:
        for folder in programs:
            kinds = _kinds(folder)
            layout.programs[folder] = [p for p, kind in kinds if kind == "program"]
            books = sum(1 for _, kind in kinds if kind == "copybook")
            if books:
                layout.copybooks[folder] = books
        for folder in copybooks:
            layout.copybooks.setdefault(folder, sum(1 for _, kind in _kinds(folder) if kind == "copybook"))
        _walk(root, 0, layout, set(programs), copybooks_only=True)
        return layout
    _walk(root, 0, layout, set())
    layout.programs = dict(sorted(layout.programs.items(), key=lambda item: (len(item[0].parts), item[0])))
    layout.copybooks = dict(sorted(layout.copybooks.items(), key=lambda item: (len(item[0].parts), item[0])))
    layout.ignored.sort(key=lambda item: (len(item[0].parts), item[0]))
    return layout


def _walk(folder: Path, depth: int, layout: Layout, skip: set[Path], copybooks_only: bool = False) -> bool:
    """Sort ``folder``'s subfolders into ``layout`` (with ``copybooks_only``, only copybook folders are
    looked for); whether any COBOL is below it. A folder without COBOL is said once, not its subfolders."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return False
    subfolders = [Path(e.path) for e in entries if e.is_dir() and not e.name.startswith(".")]
    found = False
    for sub in subfolders:
        if sub in skip:
            found = True
            continue
        kinds = _kinds(sub)
        sources = [p for p, kind in kinds if kind == "program"]
        books = sum(1 for _, kind in kinds if kind == "copybook")
        if sources and not copybooks_only:
            layout.programs[sub] = sources
        if books:
            layout.copybooks[sub] = books
        said = len(layout.ignored)
        below = depth + 1 < DEPTH and _walk(sub, depth + 1, layout, skip, copybooks_only)
        if sources or books or below:
            found = True
        else:
            del layout.ignored[said:]  # its subfolders hold no COBOL either: the folder alone is said
            if not copybooks_only:
                layout.ignored.append((sub, _what(sub)))
    return found


def _what(folder: Path) -> str:
    """What a folder without COBOL seems to hold: by its name, else by its files' endings."""
    known = _KNOWN.get(folder.name.lower())
    if known:
        return known
    endings: dict[str, int] = {}
    for _, _, files in os.walk(folder):
        for name in files:
            ending = os.path.splitext(name)[1].lower() or "no ending"
            endings[ending] = endings.get(ending, 0) + 1
    if not endings:
        return "empty"
    common = sorted(endings, key=lambda e: -endings[e])[:3]
    count = sum(endings.values())
    return f"{count} file{'s' if count > 1 else ''}: {', '.join(common)}"


def _kinds(folder: Path) -> list[tuple[Path, str]]:
    """(file, "program" | "copybook") of each COBOL file of ``folder`` (not its subfolders), sorted."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    out = []
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_file():
            continue
        kind = kind_of(Path(entry.path))
        if kind is not None:
            out.append((Path(entry.path), kind))
    return out


def kind_of(path: Path) -> str | None:
    """ "program", "copybook" or None (not COBOL) for one file, by its ending and what it holds."""
    ending = path.suffix.lower()
    if ending in COPYBOOK_ENDINGS:
        return "copybook"
    if ending and ending not in SOURCE_SUFFIXES:
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD)
    except OSError:
        return None
    if b"\0" in head or head.lstrip().startswith(b"//"):
        return None  # binary data, or JCL (whatever COBOL it holds in-stream)
    code = _code_lines(head.decode("latin-1"))
    if any(_ID_DIVISION.match(line) for line in code) and any(_PROGRAM_ID.match(line) for line in code):
        return "program"
    if ending:
        return "copybook"  # a source ending without a program: a copybook named like a source
    first = next((line for line in code if line.strip()), "")
    return "copybook" if _DATA_START.match(first) else None


def _code_lines(text: str) -> list[str]:
    """The lines of code of a fixed- or free-format text, without comment lines and the sequence area."""
    out = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("*>"):
            continue
        if len(line) > 6 and line[6] in "*/":
            continue  # a fixed-format comment line
        if len(line) > 6 and line[6] in " -Dd":
            line = line[7:72]  # fixed format: the sequence area and columns past 72 are not code
        out.append(line)
    return out
