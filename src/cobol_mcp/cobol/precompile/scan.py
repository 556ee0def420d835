"""Find and read every ``EXEC SQL … END-EXEC`` of a program: the statement table of the precompiler.

A block may span many lines (fixed or free format: :func:`..source.lines.read_lines` has already
taken the sequence area, indicator column and comments away), with or without a period after
``END-EXEC``; ``EXEC SQL`` inside a COBOL literal is not one. Each statement gets its kind (``SELECT
INTO``, ``DECLARE CURSOR``, ``WHENEVER`` …), its host variables in order (``:HV``, ``:HV:IND``, ``:HV
INDICATOR :IND``, ``:GRP.FIELD``; whether the statement sets or reads each) and the line it starts on.
A statement the runtime will not carry (CONNECT, CALL, DESCRIBE, …), a block without ``END-EXEC``,
``SELECT`` without ``INTO``, a cursor used but never declared: each is a :class:`Problem`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..source.copybooks import find_member, program_files, search_dirs
from ..source.lines import detect_format, read_lines, read_text

__all__ = [
    "HostVar",
    "Problem",
    "SqlScan",
    "SqlStatement",
    "cursor_reads",
    "data_uses",
    "exec_blocks",
    "scan_lines",
    "scan_text",
]


@dataclass(frozen=True)
class HostVar:
    name: str  # upper case, as written: WS-NAME or EMP-REC.EMP-NAME
    indicator: str | None = None
    sets: bool = False  # INTO :hv (SELECT, FETCH, VALUES) and SET :hv =


@dataclass
class SqlStatement:
    number: int  # 1, 2, … in source order: what a generated CALL will name
    kind: str  # e.g. "SELECT INTO", "DECLARE CURSOR", "INCLUDE SQLCA", "WHENEVER"
    text: str  # the SQL, white space folded, as written otherwise
    line: int  # where EXEC SQL is
    end_line: int  # where END-EXEC is
    host_vars: list[HostVar] = field(default_factory=list)
    name: str | None = None  # the cursor, statement, member or DECLARE'd table the statement names
    period: bool = False  # END-EXEC. (the statement ends a COBOL sentence)
    member: Path | None = None  # the file of INCLUDE member (a DCLGEN member, found like a copybook)


@dataclass(frozen=True)
class Problem:
    where: str  # file:line
    reason: str


@dataclass
class SqlScan:
    statements: list[SqlStatement] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


_NOT_CARRIED = {
    "CONNECT": "CONNECT: the database is the folder's; a program does not choose one",
    "CALL": "CALL of a stored procedure is not supported",
    "DESCRIBE": "DESCRIBE (SQLDA) is not supported",
    "ALLOCATE": "ALLOCATE CURSOR (result sets) is not supported",
    "ASSOCIATE": "ASSOCIATE LOCATORS (result sets) is not supported",
    "RELEASE": "RELEASE (distributed connections) is not supported",
    "GET": "GET DIAGNOSTICS is not supported",
    "SIGNAL": "SIGNAL is not supported",
}
_KINDS = ("INSERT", "UPDATE", "DELETE", "OPEN", "CLOSE", "COMMIT", "ROLLBACK", "LOCK", "EXECUTE", "PREPARE",
          "SAVEPOINT")  # fmt: skip
# FETCH's orientation words, before the cursor's name (its amount is a number or a host variable)
_FETCH_WORDS = ("NEXT", "PRIOR", "FIRST", "LAST", "FROM", "CURRENT", "ABSOLUTE", "RELATIVE", "BEFORE", "AFTER")
# a cursor's or statement's name: DB2's ordinary identifier (letters, digits, _ # @ $) or a COBOL-style one (-)
_NAME = r"[A-Z#@$][A-Z0-9_#@$-]*"
_HOST = re.compile(
    r":\s*([A-Z0-9][A-Z0-9-]*(?:\.[A-Z0-9][A-Z0-9-]*)*)(?:\s*(?:INDICATOR\s*)?:\s*([A-Z0-9][A-Z0-9-]*(?:\.[A-Z0-9][A-Z0-9-]*)*))?",
    re.I,
)


def exec_blocks(
    lines: list[tuple[int, str]], keyword: str = "SQL"
) -> tuple[list[tuple[int, int, str, bool]], list[tuple[int, str]]]:
    """(first line, END-EXEC line, text, period after) per ``EXEC <keyword> … END-EXEC`` block of
    ``lines`` ((line number, code) pairs), and (line, reason) for a block left open."""
    return _blocks(lines, keyword)


def _blocks(
    lines: list[tuple[int, str]], keyword: str = "SQL"
) -> tuple[list[tuple[int, int, str, bool]], list[tuple[int, str]]]:
    """(first line, END-EXEC line, SQL text, period after) per block, and (line, reason) for blocks left open."""
    text_parts, starts = [], []
    offset = 0
    for lineno, code in lines:
        starts.append((offset, lineno))
        text_parts.append(code)
        offset += len(code) + 1
    text = "\n".join(text_parts)

    def line_at(pos: int) -> int:
        found = starts[0][1] if starts else 1
        for start, lineno in starts:
            if start > pos:
                break
            found = lineno
        return found

    blocks, open_blocks = [], []
    pos, quote = 0, None
    upper = text.upper()
    while pos < len(text):
        ch = text[pos]
        if quote:
            quote = None if ch == quote else quote
            pos += 1
            continue
        if ch in "'\"":
            quote = ch
            pos += 1
            continue
        m = re.compile(rf"EXEC\s+{keyword}\b").match(upper, pos)
        if m and (pos == 0 or not (upper[pos - 1].isalnum() or upper[pos - 1] == "-")):
            body_start, i, sql_quote = m.end(), m.end(), None
            end = None
            while i < len(text):
                c = text[i]
                if sql_quote:
                    sql_quote = None if c == sql_quote else sql_quote
                elif c in "'\"":
                    sql_quote = c
                elif upper.startswith("--", i):
                    nl = text.find("\n", i)
                    i = len(text) if nl < 0 else nl
                    continue
                elif upper.startswith("END-EXEC", i) and not upper[i - 1].isalnum() and upper[i - 1] != "-":
                    end = i
                    break
                i += 1
            if end is None:
                open_blocks.append((line_at(pos), f"EXEC {keyword} without END-EXEC"))
                break
            after = end + len("END-EXEC")
            period = text[after : after + 1] == "."
            blocks.append((line_at(pos), line_at(end), squeeze(text[body_start:end]), period))
            pos = after + period
            continue
        pos += 1
    return blocks, open_blocks


_PIECES = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|\s+|[^'\"\s-]+|.", re.S)


def squeeze(body: str) -> str:
    """A statement's text on one line: `--` comments dropped and runs of blanks made one, outside its
    string literals only (``'A  B'`` and ``'--'`` stay as written)."""
    out: list[str] = []
    for piece in _PIECES.findall(body):
        if piece.isspace() or piece.startswith("--"):
            if out and out[-1] != " ":
                out.append(" ")
        else:
            out.append(piece)
    return "".join(out).strip()


def _without_strings(sql: str) -> str:
    return re.sub(r"'(?:[^']|'')*'", "''", sql)


def _host_vars(sql: str, sets_from: int | None) -> list[HostVar]:
    """Host variables of ``sql``; those at or after ``sets_from`` (the INTO list's start) up to its end are set."""
    found = []
    plain = _without_strings(sql)
    into_end = len(plain)
    if sets_from is not None:
        stop = re.compile(r"\b(FROM|WHERE|USING)\b", re.I).search(plain, sets_from)
        into_end = stop.start() if stop else len(plain)
    for m in _HOST.finditer(plain):
        sets = sets_from is not None and sets_from <= m.start() < into_end
        found.append(HostVar(m.group(1).upper(), m.group(2).upper() if m.group(2) else None, sets))
    return found


def _classify(sql: str) -> tuple[str, str | None, int | None, str | None]:
    """(kind, named object, where the INTO list starts, a problem) for one statement's SQL."""
    words = _without_strings(sql).upper().replace(",", " , ").split()
    plain = _without_strings(sql).upper()
    first = words[0] if words else ""
    into = re.search(r"\bINTO\b", plain)
    if not words:
        return "EMPTY", None, None, "EXEC SQL with no statement"
    if first == "INCLUDE" and len(words) > 1:
        return ("INCLUDE SQLCA" if words[1] in ("SQLCA", "SQLDA") else "INCLUDE"), words[1], None, None
    if "DESCRIPTOR" in words:
        return first, None, None, f"{first} … DESCRIPTOR (an SQLDA) is not supported"
    if words[:3] in (["BEGIN", "DECLARE", "SECTION"], ["END", "DECLARE", "SECTION"]):
        return " ".join(words[:3]), None, None, None
    if first == "DECLARE" and len(words) > 2:
        rest = words[2:]
        if "TABLE" in rest[:1]:
            return "DECLARE TABLE", words[1], None, None
        if "CURSOR" in rest[:4]:
            return "DECLARE CURSOR", words[1], None, None
        if rest[0] == "STATEMENT":
            return "DECLARE STATEMENT", words[1], None, None
        return "DECLARE", words[1], None, f"DECLARE {' '.join(rest[:2])} is not supported"
    if first == "WHENEVER":
        action = " ".join(words[1:])
        ok = re.fullmatch(r"(SQLERROR|SQLWARNING|NOT FOUND) (CONTINUE|GO ?TO :?[A-Z0-9-]+)", action)
        return "WHENEVER", None, None, None if ok else f"WHENEVER {action}: expected a condition and CONTINUE or GO TO"
    if first == "SELECT":
        if into is None:
            return "SELECT", None, None, "SELECT without INTO outside DECLARE CURSOR"
        return "SELECT INTO", None, into.end(), None
    if first == "VALUES":
        return ("VALUES INTO", None, into.end(), None) if into else ("VALUES", None, None, "VALUES without INTO")
    if first == "FETCH":
        if into is None:
            return "FETCH", None, None, "FETCH without INTO"
        name = next((w for w in words[1:] if re.fullmatch(_NAME, w) and w not in _FETCH_WORDS), None)
        return "FETCH", name, into.end(), None
    if first == "SET":
        if words[1:2] and words[1].startswith(":"):
            return "SET", None, 0, None
        return "SET", None, None, f"SET {' '.join(words[1:3])} is not supported"
    if first == "EXECUTE" and words[1:2] == ["IMMEDIATE"]:
        return "EXECUTE IMMEDIATE", None, None, None
    if first in ("OPEN", "CLOSE", "PREPARE", "EXECUTE"):
        return first, words[1] if len(words) > 1 else None, None, None
    cursor = re.search(rf"\bWHERE\s+CURRENT\s+OF\s+({_NAME})", plain)
    if first in ("UPDATE", "DELETE") and cursor:
        return f"{first} WHERE CURRENT OF", cursor.group(1) if cursor else None, None, None
    if first in _KINDS:
        return first, None, None, None
    if first in _NOT_CARRIED:
        return first, None, None, _NOT_CARRIED[first]
    return first, None, None, f"{first} is not a statement the precompiler knows"


def scan_text(path: Path, source_format: str | None = None, include: tuple[Path, ...] = ()) -> SqlScan:
    """The SQL of the program at ``path`` (its own text: COPY books are not expanded here); INCLUDE
    members are looked for where its copybooks are (``include``: the extra copybook folders)."""
    fmt = source_format or detect_format(read_text(path))
    lines = [(line.lineno, line.code) for line in read_lines(path, fmt)]
    result = scan_lines(path, lines)
    dirs = search_dirs(path, include)
    for stmt in result.statements:
        if stmt.kind == "INCLUDE" and stmt.name:
            stmt.member = find_member(stmt.name, dirs, program_files(path))
            if stmt.member is None:
                searched = ", ".join(str(d) for d in dirs)
                result.problems.append(
                    Problem(f"{path}:{stmt.line}", f"INCLUDE {stmt.name}: member not found (searched {searched})")
                )
    return result


def scan_lines(path: Path, lines: list[tuple[int, str]]) -> SqlScan:
    result = SqlScan()
    blocks, unclosed = _blocks(lines)
    for line, reason in unclosed:
        result.problems.append(Problem(f"{path}:{line}", reason))
    declared: set[str] = set()
    for number, (line, end_line, sql, period) in enumerate(blocks, 1):
        kind, name, into, problem = _classify(sql)
        if problem:
            result.problems.append(Problem(f"{path}:{line}", problem))
        if kind == "DECLARE CURSOR" and name:
            declared.add(name)
        if (kind in ("OPEN", "CLOSE", "FETCH") or kind.endswith("CURRENT OF")) and name and name not in declared:
            result.problems.append(Problem(f"{path}:{line}", f"cursor {name} is used before DECLARE CURSOR"))
        host = [] if kind in ("DECLARE TABLE", "INCLUDE", "INCLUDE SQLCA", "WHENEVER") else _host_vars(sql, into)
        if kind == "SET":  # SET :hv = expression: only the first is set
            host = [HostVar(h.name, h.indicator, n == 0) for n, h in enumerate(host)]
        result.statements.append(SqlStatement(number, kind, sql, line, end_line, host, name, period))
    return result


def cursor_reads(lines: list[tuple[int, str]]) -> dict[str, list[str]]:
    """Per cursor a program declares (anywhere in ``lines``: (line number, code)), the data names its
    SELECT reads: DB2 reads them when the cursor is OPENed."""
    found: dict[str, list[str]] = {}
    for stmt in scan_lines(Path("-"), lines).statements:
        if stmt.kind == "DECLARE CURSOR" and stmt.name:
            reads: list[str] = []
            for hv in stmt.host_vars:
                reads += [n for n in (hv.name, hv.indicator) if n and n not in reads]
            found[stmt.name] = reads
    return found


def data_uses(sql: str, cursors: dict[str, list[str]] | None = None) -> tuple[list[str], list[str]]:
    """The data names one EXEC SQL block's statement reads and sets (``sql``: what stands between EXEC SQL
    and END-EXEC): ``INTO :hv`` of SELECT, FETCH and VALUES, and ``SET :hv =``, set their host variables
    and indicators; every other host variable (and its indicator) is read, and OPEN reads those of its
    cursor's SELECT (``cursors``: see :func:`cursor_reads`). Names as written (``GRP.FIELD``). A block
    that is no statement the scanner knows reads and sets nothing."""
    kind, name, into, _ = _classify(" ".join(sql.split()))
    if kind == "DECLARE CURSOR":
        return [], []  # read at OPEN
    if kind in ("DECLARE TABLE", "INCLUDE", "INCLUDE SQLCA", "WHENEVER") or kind.endswith("DECLARE SECTION"):
        return [], []
    host = _host_vars(" ".join(sql.split()), into)
    if kind == "SET":
        host = [HostVar(h.name, h.indicator, n == 0) for n, h in enumerate(host)]
    reads: list[str] = list((cursors or {}).get(name or "", [])) if kind == "OPEN" else []
    sets: list[str] = []
    for hv in host:
        names = sets if hv.sets else reads
        names += [n for n in (hv.name, hv.indicator) if n and n not in names]
    return reads, sets
