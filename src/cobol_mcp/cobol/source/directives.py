"""IBM compiler-option lines (``CBL`` / ``PROCESS``) and what cobc makes of them.

Enterprise COBOL sources may open with one or more ``CBL`` or ``PROCESS`` lines before the
IDENTIFICATION DIVISION (in fixed format after the sequence area, anywhere in free format). GnuCOBOL
3.1.2 refuses ``CBL`` and ignores ``PROCESS``; the build gives cobc a copy with those lines blanked (line
numbers kept) and passes the options that have a GnuCOBOL equivalent as cobc flags:

- ``TRUNC(BIN)`` / ``TRUNC(OPT)``: ``-fnotrunc`` (binary items keep their full binary value);
  ``TRUNC(STD)`` is GnuCOBOL's default.
- ``APOST``: ``-fsingle-quote``; ``QUOTE`` is the default.
- ``ARITH(EXTEND)`` (31 digits): GnuCOBOL already computes with 38. ``SSRANGE``: the build's ``-debug``
  already checks subscripts. ``SQL`` and ``CICS`` (the integrated DB2 coprocessor and CICS translator,
  with their suboptions): the server precompiles EXEC SQL and translates EXEC CICS itself.

Any other option is skipped with a warning naming it and its file:line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CompilerOptions", "compiler_options", "options_text"]

_OPTIONS_LINE = re.compile(r"^\s*(CBL|PROCESS)(?=\s|$)(.*)$", re.I)
_START = re.compile(r"\b(IDENTIFICATION|ID)\s+DIVISION\b", re.I)
_OPTION = re.compile(r"[A-Z0-9-]+(?:\s*\([^)]*\))?", re.I)
# Options GnuCOBOL already behaves by (nothing to pass), in upper case without blanks.
_NATIVE = {"TRUNC(STD)", "QUOTE", "Q", "ARITH(EXTEND)", "AR(E)", "ARITH(E)", "SSRANGE", "SSR"}
# The integrated DB2 coprocessor and CICS translator (SQL, SQL('...'), CICS('...')): the server precompiles
# EXEC SQL and translates EXEC CICS itself, whatever the options say.
_PRECOMPILERS = re.compile(r"^(?:SQL|CICS|NOSQL|NOCICS)(?:\(.*\))?$")
_FLAGS = {"TRUNC(BIN)": "-fnotrunc", "TRUNC(OPT)": "-fnotrunc", "APOST": "-fsingle-quote", "APOS": "-fsingle-quote"}


@dataclass
class CompilerOptions:
    flags: list[str] = field(default_factory=list)  # cobc flags, in order, without repeats
    warnings: list[str] = field(default_factory=list)  # `file:line: option X skipped: why`
    lines: list[int] = field(default_factory=list)  # 1-based numbers of the CBL/PROCESS lines


def options_text(raw: str, fmt: str) -> str | None:
    """The options of a CBL/PROCESS line ("" if none), or None if the line is not one."""
    areas = (raw[7:72], raw[:72]) if fmt == "fixed" else (raw,)
    for text in areas:
        match = _OPTIONS_LINE.match(text)
        if match:
            return match.group(2).strip().rstrip(".")
    return None


def compiler_options(path: Path, text: str, fmt: str) -> CompilerOptions:
    """The CBL/PROCESS lines before the IDENTIFICATION DIVISION, read as cobc flags and warnings."""
    found = CompilerOptions()
    trunc: str | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        if fmt == "fixed" and raw[6:7] in ("*", "/"):
            continue
        body = options_text(raw.expandtabs(8) if fmt == "fixed" else raw, fmt)
        if body is None:
            if _START.search(raw if fmt == "free" else raw[7:72]):
                break
            continue
        found.lines.append(n)
        for match in _OPTION.finditer(body):
            option = re.sub(r"\s+", "", match.group()).upper()
            if option in ("TRUNC(STD)", "TRUNC(BIN)", "TRUNC(OPT)"):  # the last one given counts
                trunc = option
            elif option in _FLAGS:
                found.flags.append(_FLAGS[option])
            elif option not in _NATIVE and not _PRECOMPILERS.match(option):
                found.warnings.append(
                    f"{path}:{n}: compiler option {match.group()} skipped (GnuCOBOL has no equivalent)"
                )
    if trunc is not None and trunc in _FLAGS:
        found.flags.append(_FLAGS[trunc])
    found.flags = list(dict.fromkeys(found.flags))
    return found
