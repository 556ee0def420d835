"""Program units of one source file: several programs one after another, and programs nested in others.

A file may hold several separately compiled programs (each ended by ``END PROGRAM name.``, the last
one's may be left out) and a program may contain nested programs (a PROGRAM-ID before the END
PROGRAM of the program around it). Every outermost program is a unit of its own, CALLable from
outside; nested ones are internal to their container and never tools.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import LinkageError
from .lines import Line

__all__ = ["Unit", "program_units"]

_LITERAL = re.compile(r"\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'")
_HEADER = re.compile(r"(?<![\w-])(?:IDENTIFICATION|ID)\s+DIVISION(?![\w-])", re.I)
_PROGRAM_ID = re.compile(r"(?<![\w-])PROGRAM-ID(?![\w-])\s*\.?\s*([\w-]+|\"[^\"]*\"|'[^']*')?", re.I)
_END_PROGRAM = re.compile(r"(?<![\w-])END\s+PROGRAM\s+([\w-]+|\"[^\"]*\"|'[^']*')", re.I)
_END_WORDS = re.compile(r"(?<![\w-])END\s+PROGRAM(?![\w-])", re.I)  # found with literals blanked


@dataclass(frozen=True)
class Unit:
    """An outermost program: its PROGRAM-ID and the lines [start, end) it spans, less its nested ones."""

    name: str
    start: int
    end: int
    nested: tuple[tuple[int, int], ...] = ()

    def lines(self, lines: list[Line]) -> list[Line]:
        """``lines`` with every line outside this unit (or inside a nested program) emptied; line numbers
        and comments inside the unit stay as they are, so messages still point at the file."""
        out: list[Line] = []
        for i, line in enumerate(lines):
            inside = self.start <= i < self.end and not any(a <= i < b for a, b in self.nested)
            out.append(line if inside else Line(line.path, line.lineno, ""))
        return out


def _name(token: str) -> str:
    return token[1:-1] if token[:1] in "\"'" else token


def program_units(lines: list[Line]) -> list[Unit]:
    """The outermost programs of a file, in order. One program (the usual case) gives one unit spanning
    the whole file. A file with no PROGRAM-ID gives none."""
    opened: list[tuple[str, int]] = []  # (name, first line) of the programs open around this line
    header: int | None = None  # the IDENTIFICATION DIVISION line a coming PROGRAM-ID belongs to
    units: list[Unit] = []
    nested: list[tuple[int, int]] = []
    for i, line in enumerate(lines):
        blanked = _LITERAL.sub(lambda m: " " * len(m.group()), line.code)  # keywords count outside literals
        found = (*_HEADER.finditer(blanked), *_PROGRAM_ID.finditer(blanked), *_END_WORDS.finditer(blanked))
        for hit in sorted(found, key=lambda m: m.start()):
            word = hit.group().split()[0].upper()
            m = (_PROGRAM_ID if word.startswith("PROGRAM-ID") else _END_PROGRAM).match(line.code, hit.start())
            if m is None:  # IDENTIFICATION DIVISION
                m = hit
            if word in ("IDENTIFICATION", "ID"):
                header = i if header is None else header
            elif word.startswith("PROGRAM-ID"):
                if m.group(1) is None:
                    continue  # "PROGRAM-ID." with the name on a later line: the parser reports it
                opened.append((_name(m.group(1)), header if header is not None else i))
                header = None  # (cobc refuses a second PROGRAM-ID before the first one's END PROGRAM)
            else:
                if m is hit:
                    raise LinkageError(f"{line.where}: END PROGRAM without a program name")
                name = _name(m.group(1)).upper()
                depth = next((d for d in range(len(opened) - 1, -1, -1) if opened[d][0].upper() == name), None)
                if depth is None:
                    raise LinkageError(f"{line.where}: END PROGRAM {_name(m.group(1))} ends no open program")
                first = opened[depth][1]
                del opened[depth:]
                if depth == 0:
                    units.append(Unit(_name(m.group(1)), first, i + 1, tuple(nested)))
                    nested = []
                elif depth == 1:
                    nested.append((first, i + 1))
    if opened:  # the last program may end at the end of the file; programs inside it are nested
        name, first = opened[0]
        inner = [(start, len(lines)) for _, start in opened[1:]]  # unterminated nested: the parser reports
        units.append(Unit(name, first, len(lines), (*nested, *inner[:1])))
    if units:  # lines before the first program (a CBL line, comments) and after the last belong to them
        units[0] = Unit(units[0].name, 0, units[0].end, units[0].nested)
        units[-1] = Unit(units[-1].name, units[-1].start, len(lines), units[-1].nested)
    return units
