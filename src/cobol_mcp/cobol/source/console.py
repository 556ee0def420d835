"""What a main program reads from outside: its ACCEPT statements, by kind.

A console program (a PROCEDURE DIVISION without USING) reads lines of standard input with a plain
``ACCEPT item`` (or ``FROM CONSOLE``/``SYSIN``/``STDIN``) and its command line with ``ACCEPT item FROM
ARGUMENT-VALUE``, ``ARGUMENT-NUMBER`` or ``COMMAND-LINE``. Other sources (DATE, TIME, ENVIRONMENT...)
need nothing from the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .lines import load

__all__ = ["ConsoleInputs", "console_inputs"]

_ACCEPT = re.compile(r"\bACCEPT\s+([A-Z0-9][A-Z0-9-]*)(?:\s*\([^)]*\))?(?:\s+FROM\s+([A-Z][A-Z0-9-]*))?", re.I)
_STDIN = ("CONSOLE", "SYSIN", "STDIN")
_ARGS = ("ARGUMENT-VALUE", "ARGUMENT-NUMBER", "COMMAND-LINE")


@dataclass
class ConsoleInputs:
    stdin: list[str] = field(default_factory=list)  # items ACCEPTed from standard input, in order
    args: list[str] = field(default_factory=list)  # items ACCEPTed from the command line


def console_inputs(path: Path, source_format: str | None = None) -> ConsoleInputs:
    """The ACCEPT statements of a program (and its copybooks), split by where they read from."""
    lines, _, _ = load(Path(path), source_format)
    found = ConsoleInputs()
    text = " ".join(line.code for line in lines)
    for match in _ACCEPT.finditer(_without_literals(text)):
        item, source = match.group(1).upper(), (match.group(2) or "").upper()
        target = found.stdin if source in ("", *_STDIN) else found.args if source in _ARGS else None
        if target is not None and item not in target:
            target.append(item)
    return found


def _without_literals(text: str) -> str:
    return re.sub(r"\"[^\"]*\"|'[^']*'", '""', text)
