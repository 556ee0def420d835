"""Static CALL targets of a folder that no program of the folder provides, for `check`'s warnings.

A literal `CALL 'X'` is resolved when the program runs; a target that is neither a PROGRAM-ID of
the folder (served or not), nor a libcob system routine, nor a Language Environment service the
server provides (:mod:`..le`: CEEDAYS, CEELOCT, CEE3ABD ...) ends that call with an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .. import SOURCE_SUFFIXES, LinkageError
from ..le import SERVICES
from ..linkage.dialect import DialectError, load_dialect
from ..source.lines import load
from .cobc import DEFAULT_FLAGS, BuildError, build_module

_CALL = re.compile(r"""\bCALL\s+(?:STATIC\s+)?(['"])([^'"]+)\1""", re.IGNORECASE)
_CALL_AT_END = re.compile(r"\bCALL\s*$", re.IGNORECASE)
_PROGRAM_ID = re.compile(r"""\bPROGRAM-ID\s*\.?\s*(['"]?)([A-Za-z0-9_$-]+)\1""", re.IGNORECASE)
# libcob's own routines (libcob/system.def): CBL_*, C$*, SYSTEM and the X"nn" ones.
_SYSTEM_PREFIXES = ("CBL_", "C$")
_SYSTEM_NAMES = {"SYSTEM", 'X"91"', 'X"E4"', 'X"E5"', 'X"F4"', 'X"F5"'}


def unresolved_calls(folder: Path, source_format: str | None = None, sources: list[Path] | None = None) -> list[str]:
    """One `file:line: CALL 'X': ...` warning per literal CALL whose target is nowhere (``sources``: the
    programs of an application folder, default the folder's own sources)."""
    if sources is None:
        sources = sorted(p for p in folder.iterdir() if p.suffix.lower() in SOURCE_SUFFIXES and p.is_file())
    programs: set[str] = set()
    calls: list[tuple[str, str]] = []
    for source in sources:
        try:
            lines, _, _ = load(source, source_format)
        except (LinkageError, OSError):
            continue  # a source that cannot be read is reported by the build
        held = ""  # a CALL at the end of a line: its target is on the next one
        for line in lines:
            code = f"{held} {line.code}" if held else line.code
            held = "CALL" if _CALL_AT_END.search(line.code) else ""
            programs.update(m.group(2) for m in _PROGRAM_ID.finditer(code))  # as written: libcob is case-sensitive
            calls.extend((line.where, m.group(2)) for m in _CALL.finditer(code))
    warnings = []
    for where, target in calls:
        name = target.strip()
        if name in programs or name in SERVICES or name.upper().startswith(_SYSTEM_PREFIXES):
            continue
        if name.upper() in _SYSTEM_NAMES:
            continue
        warnings.append(
            f"{where}: CALL '{name}': no program of {folder} has this PROGRAM-ID and it is no libcob system "
            "routine: the call will end in an error"
        )
    return warnings


def callee_module(
    source: Path,
    cache_dir: Path | None = None,
    source_format: str | None = None,
    include: Iterable[Path] = (),
    dialect: str | None = None,
) -> tuple[str, str] | None:
    """(PROGRAM-ID, module) of a program the server refused as a tool (its LINKAGE cannot be a tool's
    schema, e.g. OCCURS DEPENDING ON): other programs may still CALL it. None when it cannot be built."""
    try:
        lines, fmt, _ = load(source, source_format, include)
        found = next((m for line in lines for m in _PROGRAM_ID.finditer(line.code)), None)
        if found is None:
            return None
        flags = (*DEFAULT_FLAGS, *load_dialect(dialect).flags)
        return found.group(2), str(build_module(source, cache_dir, source_format=fmt, flags=flags, include=include))
    except (LinkageError, BuildError, DialectError, OSError):
        return None
