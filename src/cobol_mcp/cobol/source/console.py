"""What a main program reads from outside: its ACCEPT statements, by kind.

A console program (a PROCEDURE DIVISION without USING) reads lines of standard input with a plain
``ACCEPT item`` (or ``FROM CONSOLE``/``SYSIN``/``STDIN``) and its command line with ``ACCEPT item FROM
ARGUMENT-VALUE``, ``ARGUMENT-NUMBER`` or ``COMMAND-LINE``. Other sources (DATE, TIME, ENVIRONMENT...)
need nothing from the caller.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .lines import load

__all__ = ["ConsoleInputs", "FileUse", "console_inputs"]

_ACCEPT = re.compile(r"\bACCEPT\s+([A-Z0-9][A-Z0-9-]*)(?:\s*\([^)]*\))?(?:\s+FROM\s+([A-Z][A-Z0-9-]*))?", re.I)
_SELECT = re.compile(
    r"\bSELECT\s+(?:OPTIONAL\s+)?([A-Z0-9][A-Z0-9-]*)\s+ASSIGN\s+(?:TO\s+)?"
    r"(?:(?:DISK|EXTERNAL|DYNAMIC)\s+)?(\"[^\"]*\"|'[^']*'|[A-Z0-9][A-Z0-9-]*)",
    re.I,
)
_ACCESS = re.compile(r"\bACCESS\s+(?:MODE\s+)?(?:IS\s+)?(?:SEQUENTIAL|RANDOM|DYNAMIC)\b", re.I)
_ORGANIZATION = re.compile(
    r"\b(?:ORGANIZATION\s+(?:IS\s+)?)?(LINE\s+SEQUENTIAL|RECORD\s+(?:BINARY\s+)?SEQUENTIAL|SEQUENTIAL|INDEXED|RELATIVE)\b",
    re.I,
)
_OPEN = re.compile(r"(?<![A-Z0-9-])OPEN(?![A-Z0-9-])", re.I)
_WORD = re.compile(r"[A-Z0-9][A-Z0-9-]*|\.(?!\d)", re.I)  # a word, or a period (a decimal point is no end)
_MODES = ("INPUT", "OUTPUT", "I-O", "EXTEND")
_OPEN_PHRASES = frozenset(["REVERSED", "WITH", "NO", "REWIND", "LOCK", "SHARING", "ALL", "OTHER", "READ", "ONLY"])
_STDIN = ("CONSOLE", "SYSIN", "STDIN")
_ARGS = ("ARGUMENT-VALUE", "ARGUMENT-NUMBER", "COMMAND-LINE")


@dataclass
class ConsoleInputs:
    stdin: list[str] = field(default_factory=list)  # items ACCEPTed from standard input, in order
    args: list[str] = field(default_factory=list)  # items ACCEPTed from the command line
    files: dict[str, FileUse] = field(default_factory=dict)  # by SELECT name


@dataclass
class FileUse:
    """A file the program SELECTs: the name it is ASSIGNed to, and the modes it OPENs it in."""

    assign: str
    literal: bool  # ASSIGN TO "name" (else ASSIGN TO NAME: GnuCOBOL maps it through DD_/dd_/COB_FILE_PATH)
    modes: list[str] = field(default_factory=list)  # INPUT, OUTPUT, I-O, EXTEND
    organization: str = "sequential"  # "line" (LINE SEQUENTIAL), "sequential" (records), "indexed", "relative"

    @property
    def escapes(self) -> bool:
        """Whether the name could reach outside the data directory (absolute, `..`, `$VAR`, `~`)."""
        name = self.assign
        return name.startswith(("/", "\\", "~", "$")) or ".." in name.replace("\\", "/").split("/")


def console_inputs(path: Path, source_format: str | None = None, include: Iterable[Path] = ()) -> ConsoleInputs:
    """The ACCEPT statements of a program (and its copybooks; ``include``: more copybook folders), split
    by where they read from."""
    lines, _, _ = load(Path(path), source_format, include)
    found = ConsoleInputs()
    text = " ".join(line.code for line in lines)
    for match in _ACCEPT.finditer(_without_literals(text)):
        item, source = match.group(1).upper(), (match.group(2) or "").upper()
        target = found.stdin if source in ("", *_STDIN) else found.args if source in _ARGS else None
        if target is not None and item not in target:
            target.append(item)
    for match in _SELECT.finditer(text):
        assign = match.group(2)
        literal = assign[:1] in "\"'"
        clauses = _ACCESS.sub(" ", _without_literals(text[match.end() :]).split(".", 1)[0])
        kind = _ORGANIZATION.search(clauses)
        organization = "sequential" if kind is None else kind.group(1).split()[0].lower()
        organization = "sequential" if organization == "record" else organization
        found.files[match.group(1).upper()] = FileUse(assign[1:-1] if literal else assign, literal, [], organization)
    code = _without_literals(text)
    for match in _OPEN.finditer(code):
        _opened(code, match.end(), found.files)
    return found


def _opened(code: str, at: int, files: dict[str, FileUse]) -> None:
    """The modes of one OPEN statement (its words from ``at``): ``OPEN INPUT A B OUTPUT C D.``, over as
    many lines as it takes, up to the period that ends its sentence or the first word that is no mode, no
    file the program SELECTs and none of OPEN's phrases (REVERSED, WITH NO REWIND, SHARING ...)."""
    mode = ""
    for word in (m.group(0).upper() for m in _WORD.finditer(code, at)):
        if word in _MODES:
            mode = word
        elif word in files and mode:
            if mode not in files[word].modes:
                files[word].modes.append(mode)
        elif word not in _OPEN_PHRASES or not mode:
            return


def _without_literals(text: str) -> str:
    return re.sub(r"\"[^\"]*\"|'[^']*'", '""', text)
