"""The precompiler's output: the program's text with every ``EXEC SQL … END-EXEC`` replaced, for cobc.

Each block is replaced where it stands, on the same lines, so that cobc's line numbers still point
at the user's lines: the replacement starts where ``EXEC`` was and its words are spread over the
block's lines (cols 12-72 in fixed format); code before ``EXEC`` and after ``END-EXEC`` stays. Words
that do not fit go onto the block's last line beyond column 72, and the result then asks for
``-ftext-column=255`` (:attr:`Generated.wide`; the sequence area of every line is blanked, so that
columns 73-80 never become code). Past column 255, or in a program with a continued literal (which
cobc would pad to column 255), lines are added instead (:attr:`Generated.shifted`: cobc's line numbers
after that block are off by the lines added).

* ``INCLUDE SQLCA`` becomes ``COPY "SQLCA.sqlinc".``, ``INCLUDE member`` ``COPY "MEMBER.sqlinc".``:
  :attr:`Generated.copybooks` holds their text (the SQLCA as IBM documents DB2 for z/OS's, 136 bytes;
  the member with its own EXEC SQL replaced) to be written where cobc finds COPY books (``-I``).
  ``INCLUDE SQLDA`` declares DB2's descriptor area the same way; a statement USING or INTO a DESCRIPTOR
  is what is refused (:mod:`.scan`), not the declaration.
* ``BEGIN/END DECLARE SECTION``, ``DECLARE … TABLE``, ``DECLARE CURSOR``, ``DECLARE … STATEMENT`` and
  ``WHENEVER`` run nothing: blank in the DATA DIVISION, ``CONTINUE`` in the PROCEDURE DIVISION (so a
  period after END-EXEC still ends its sentence). A cursor's SELECT runs at its OPEN.
* Every other statement is ``CALL 'SQLRT' USING BY VALUE n BY REFERENCE SQLCA hv ind …`` (``n`` the
  statement's number, then each host variable and indicator once, in the statement table's order,
  OPEN first those of its cursor's SELECT; ``:GRP.FIELD`` is ``FIELD OF GRP``; a VARCHAR or host
  structure passes as its group), followed by an ``IF … GO TO … END-IF`` for each WHENEVER in force
  at that point of the source (DB2's WHENEVER is positional: it holds until the next one for the same
  condition).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..source.entries import comment_entries, mask_entries
from ..source.lines import read_text
from .scan import Problem, SqlScan, SqlStatement, scan_text

__all__ = [
    "ENTRY",
    "SQLCA_BOOK",
    "SQLDA_BOOK",
    "Generated",
    "SourceLines",
    "declares",
    "generate",
    "generate_file",
    "passed",
]

ENTRY = "SQLRT"
NOT_EXECUTABLE = frozenset(("INCLUDE", "INCLUDE SQLCA", "BEGIN DECLARE SECTION", "END DECLARE SECTION",
                            "DECLARE TABLE", "DECLARE CURSOR", "DECLARE STATEMENT", "WHENEVER"))  # fmt: skip
_CONDITIONS = {
    "NOT FOUND": "SQLCODE = 100",
    "SQLERROR": "SQLCODE < 0",
    "SQLWARNING": "(SQLCODE > 0 AND SQLCODE NOT = 100) OR SQLWARN0 = 'W'",
}
SQLCA_BOOK = "\n".join(
    "       " + line
    for line in (
        "*> THE SQL COMMUNICATION AREA, AS DB2 FOR Z/OS LAYS IT OUT (136 BYTES)",
        "01  SQLCA.",
        "    05  SQLCAID             PIC X(8)  VALUE 'SQLCA   '.",
        "    05  SQLCABC             PIC S9(9) COMP-5 VALUE 136.",
        "    05  SQLCODE             PIC S9(9) COMP-5 VALUE 0.",
        "    05  SQLERRM.",
        "        49  SQLERRML        PIC S9(4) COMP-5 VALUE 0.",
        "        49  SQLERRMC        PIC X(70) VALUE SPACES.",
        "    05  SQLERRP             PIC X(8)  VALUE SPACES.",
        "    05  SQLERRD             OCCURS 6 TIMES",
        "                            PIC S9(9) COMP-5.",
        "    05  SQLWARN.",
        *(f"        10  SQLWARN{c}        PIC X     VALUE SPACE." for c in "01234567"),
        "    05  SQLEXT.",
        *(f"        10  SQLWARN{c}        PIC X     VALUE SPACE." for c in "89A"),
        "    05  SQLSTATE            PIC X(5)  VALUE '00000'.",
    )
) + "\n"  # fmt: skip


SQLDA_BOOK = "\n".join(
    "       " + line
    for line in (
        "*> THE SQL DESCRIPTOR AREA, AS DB2 FOR Z/OS DESCRIBES IT (NO STATEMENT HERE USES ONE)",
        "01  SQLDA.",
        "    05  SQLDAID             PIC X(8)  VALUE 'SQLDA   '.",
        "    05  SQLDABC             PIC S9(9) COMP-5 VALUE 0.",
        "    05  SQLN                PIC S9(4) COMP-5 VALUE 1.",
        "    05  SQLD                PIC S9(4) COMP-5 VALUE 0.",
        "    05  SQLVAR              OCCURS 1 TO 750 TIMES",
        "                            DEPENDING ON SQLN.",
        "        10  SQLTYPE         PIC S9(4) COMP-5.",
        "        10  SQLLEN          PIC S9(4) COMP-5.",
        "        10  SQLDATA         USAGE POINTER.",
        "        10  SQLIND          USAGE POINTER.",
        "        10  SQLNAME.",
        "            49  SQLNAMEL    PIC S9(4) COMP-5.",
        "            49  SQLNAMEC    PIC X(30).",
    )
) + "\n"  # fmt: skip


@dataclass
class Generated:
    text: str
    copybooks: dict[str, str] = field(default_factory=dict)  # file name -> text, for cobc's -I folder
    wide: bool = False  # compile with -ftext-column=255 (fixed format)
    shifted: bool = False  # lines were added: cobc's line numbers after the first such block are off


_EXEC = re.compile(r"\bEXEC\s+SQL\b|\bEXEC\s*$", re.I)
_END = re.compile(r"\bEND-EXEC\b(\s*\.)?", re.I)
_PROCEDURE = re.compile(r"\bPROCEDURE\s+DIVISION\b", re.I)


def _host_words(name: str) -> list[str]:
    parts = name.split(".")
    words = [parts[-1]]
    for qualifier in reversed(parts[:-1]):
        words += ["OF", qualifier]
    return words


def passed(stmt: SqlStatement, cursors: dict[str, SqlStatement] | None = None) -> list[str]:
    """The data items a statement's CALL passes after the SQLCA: each host variable and indicator once, in
    the order they first appear in the statement (``SET :A = :A + 1`` passes A once). OPEN passes those of
    its cursor's SELECT first (``cursors``: the DECLARE CURSOR statements by name, see :func:`declares`),
    which DB2 reads when the cursor is opened, then its own (USING)."""
    names: list[str] = []
    declare = (cursors or {}).get(stmt.name or "") if stmt.kind == "OPEN" else None
    for hv in [*(declare.host_vars if declare else []), *stmt.host_vars]:
        names += [n for n in (hv.name, hv.indicator) if n and n not in names]
    return names


def declares(statements: list[SqlStatement]) -> dict[str, SqlStatement]:
    """The DECLARE CURSOR statements of a program, by cursor name."""
    return {s.name: s for s in statements if s.kind == "DECLARE CURSOR" and s.name}


def _call_words(stmt: SqlStatement, whenever: dict[str, str], cursors: dict[str, SqlStatement]) -> list[str]:
    words = ["CALL", f"'{ENTRY}'", "USING", "BY", "VALUE", str(stmt.number), "BY", "REFERENCE", "SQLCA"]
    for name in passed(stmt, cursors):
        words += _host_words(name)
    for condition, label in whenever.items():
        words += ["IF", *_CONDITIONS[condition].split(), "GO", "TO", label, "END-IF"]
    return words


def _whenever(stmt: SqlStatement, state: dict[str, str]) -> None:
    m = re.fullmatch(r"WHENEVER\s+(SQLERROR|SQLWARNING|NOT\s+FOUND)\s+(CONTINUE|GO\s*TO\s*:?\s*([A-Z0-9-]+))",
                     stmt.text.upper().strip())  # fmt: skip
    if m is None:
        return
    condition = " ".join(m.group(1).split())
    if m.group(3):
        state[condition] = m.group(3)
    else:
        state.pop(condition, None)


class _Lines:
    """The program's lines, edited in place: code columns of fixed format, or whole lines."""

    def __init__(self, text: str, fmt: str, wide: bool = False) -> None:
        """``wide``: fixed-format text whose code runs to column 255 (the EXEC CICS translator's output)."""
        self.fixed = fmt == "fixed"
        raw = text.splitlines()
        self.lines = [line.expandtabs(8)[: 255 if wide else 72].rstrip() if self.fixed else line for line in raw]
        # comment-entries (AUTHOR. J. O'Brien.) are no code: they come before every line an edit adds
        self.entries = comment_entries(raw, fmt)
        self.start = 7 if self.fixed else 0
        self.wide, self.shifted = wide, False
        self.added = 0
        # -ftext-column=255 would pad a continued literal to column 255: with one, lines are added instead
        self.can_widen = self.fixed and not any(line[6:7] == "-" for line in self.lines)

    def code(self, k: int) -> str:
        """Line ``k``'s code: empty for a comment line, its comment-entry blanked."""
        line = mask_entries(self.lines[k], self.entries.get(k))
        if self.fixed and line[6:7] in ("*", "/"):
            return ""
        return line[self.start :]

    def replace(self, first: int, col: int, last: int, end: int, words: list[str], keep_period: bool) -> None:
        """Lines first..last (0-based): from ``col`` of the first to ``end`` of the last become ``words``."""
        before = self.lines[first][: self.start + col]
        after = self.lines[last][self.start + end :]
        text_lines = [before] + [""] * (last - first)
        margin = 11 if self.fixed else 7
        k, limit = 0, 72 if self.fixed else 250
        hard = 255 if self.fixed and self.can_widen else limit
        pieces = [*words[:-1], words[-1] + ("." if keep_period else "")] if words else (["."] if keep_period else [])
        for word in pieces:
            current = text_lines[k]
            if k == 0 or current.strip():
                joined = current + ("" if not current or current.endswith(" ") else " ") + word
            else:
                joined = " " * margin + word
            if len(joined) > limit and k + 1 < len(text_lines):
                k += 1
                joined = " " * margin + word
            elif len(joined) > hard:
                text_lines.append(" " * margin + word)
                self.shifted = True
                k += 1
                continue
            elif len(joined) > limit:
                self.wide = True
            text_lines[k] = joined
        if after.strip():
            joined = (text_lines[-1] + " " + after.strip()) if text_lines[-1].strip() else text_lines[-1] + after
            if len(joined) > hard:
                text_lines.append(" " * margin + after.strip())
                self.shifted = True
            else:
                text_lines[-1] = joined
                self.wide = self.wide or len(joined) > limit
        self.lines[first : last + 1] = text_lines
        self.added += len(text_lines) - (last - first + 1)


SourceLines = _Lines  # the line editor, public for the EXEC CICS translator (cics_generate)


def _locate(lines: _Lines, stmt: SqlStatement, offset: int) -> tuple[int, int, int, int]:
    """(first line, column of EXEC, last line, column after END-EXEC[.]): the generated text holds no
    EXEC, so the first one on the line is this block's."""
    first, last = stmt.line - 1 + offset, stmt.end_line - 1 + offset
    m = _EXEC.search(lines.code(first))
    col = m.start() if m else 0
    code = lines.code(last)
    e = _END.search(code, col if last == first else 0)
    end = e.end() if e else len(code)
    return first, col, last, end


def generate(
    text: str, scan: SqlScan, fmt: str, member_text: dict[str, str] | None = None, wide: bool = False
) -> Generated:
    """``text`` (a program or member, format ``fmt``) with its EXEC SQL blocks replaced (see the module);
    ``member_text``: INCLUDE member name -> its generated text (see :func:`generate_file`)."""
    lines = _Lines(text, fmt, wide)
    procedure_at = next((k + 1 for k in range(len(lines.lines)) if _PROCEDURE.search(lines.code(k))), None)
    out = Generated("")
    whenever: dict[str, str] = {}
    cursors = declares(scan.statements)
    for stmt in scan.statements:
        in_procedure = procedure_at is not None and stmt.line >= procedure_at
        period = stmt.period
        if stmt.kind == "WHENEVER":
            _whenever(stmt, whenever)
        if stmt.kind == "INCLUDE SQLCA":  # (or the SQLDA)
            book = "SQLDA.sqlinc" if stmt.name == "SQLDA" else "SQLCA.sqlinc"
            words, period = [f'COPY "{book}"'], True
            out.copybooks[book] = SQLDA_BOOK if stmt.name == "SQLDA" else SQLCA_BOOK
        elif stmt.kind == "INCLUDE" and stmt.name:
            book = f"{stmt.name}.sqlinc"
            words, period = [f'COPY "{book}"'], True
            out.copybooks[book] = (member_text or {}).get(stmt.name, "")
        elif stmt.kind in NOT_EXECUTABLE:
            words = ["CONTINUE"] if in_procedure else []
            period = period and in_procedure
        else:
            words = _call_words(stmt, whenever, cursors)
        first, col, last, end = _locate(lines, stmt, lines.added)
        lines.replace(first, col, last, end, words, period)
    out.text = "\n".join(lines.lines) + "\n"
    out.wide, out.shifted = lines.wide, lines.shifted
    return out


def generate_file(
    path: Path, fmt: str, include: tuple[Path, ...] = (), wide: bool = False
) -> tuple[Generated, SqlScan]:
    """The program at ``path`` precompiled, with its INCLUDE members (fixed format, as DCLGEN writes them;
    a member's own INCLUDEs too, found where the program's are); ``wide``: its code runs to column 255 (an
    EXEC CICS program's translation)."""
    scan = scan_text(path, fmt, include)
    members = _members(scan, include, set(), scan.problems)
    out = generate(read_text(path), scan, fmt, members, wide)
    for name, text in members.items():  # (those a member INCLUDEs)
        out.copybooks.setdefault(f"{name}.sqlinc", text)
    return out, scan


def _members(scan: SqlScan, include: tuple[Path, ...], seen: set[str], problems: list[Problem]) -> dict[str, str]:
    """Name -> generated text of every member the statements INCLUDE, and of the members those INCLUDE (a
    member one INCLUDEs that is nowhere: in ``problems``)."""
    texts: dict[str, str] = {}
    for stmt in scan.statements:
        if stmt.kind == "INCLUDE" and stmt.name and stmt.member is not None and stmt.name not in seen:
            seen.add(stmt.name)
            member_scan = scan_text(stmt.member, "fixed", include)
            problems += [p for p in member_scan.problems if p.reason.startswith("INCLUDE ")]
            nested = _members(member_scan, include, seen, problems)
            texts.update(nested)
            texts[stmt.name] = generate(read_text(stmt.member), member_scan, "fixed", nested).text
    return texts
