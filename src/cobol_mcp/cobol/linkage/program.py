"""Derive a COBOL program's callable interface from its source.

The interface is the PROGRAM-ID (tool name and C entry symbol), the comment block after it (tool
description) and the LINKAGE SECTION records named in ``PROCEDURE DIVISION USING`` (parameters), laid out
byte for byte the way GnuCOBOL 3.1.2 lays them out under the chosen dialect (default: its own)
(:func:`cobol_mcp.cobol.prepare.cobc_check.verify_with_cobc` asks the compiler for its own layout so the
two can be compared).

Conventions: the source is fixed format unless the evidence over its lines says free or a
``>>SOURCE FORMAT`` directive says so; COPY books are found as :mod:`..source.copybooks` says (the
program's folder, ``copybooks/``, sibling copybook folders, --copybooks; any case). A PROGRAM-ID
name may lack its period before the next paragraph or division.
Each item of the USING records is an argument, a result, both or neither according to what the
PROCEDURE DIVISION does with it (:mod:`.direction`); where that cannot be known, an item or record named
``*-IN``/``-INPUT``/``-REQUEST`` is input only, ``*-OUT``/``-OUTPUT``/``-RESULT``/``-RESPONSE`` output
only, any other both. An item passed ``BY VALUE`` is input only (the program works on its own copy);
only an elementary native binary integer of up to 4 bytes can be (:func:`by_value_refusal` says why
not). Comment lines directly above an item describe it (or a ``*>`` comment on the line that ends it).

The stages: :mod:`..source` (source format, comments, continuation lines, COPY ... REPLACING, tokens),
:mod:`.clauses` (data description entries), :mod:`.layout` (offsets, sizes, alignment).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .. import LinkageError
from ..source.lines import Line, description_after, load
from ..source.tokens import HEADERS, Tok, tokenize
from ..source.units import program_units
from .clauses import Parser, nest
from .dialect import load_dialect
from .direction import apply_directions, directions, name_direction, redirect
from .frozen import replace
from .layout import build_record
from .linked import Effects, linked_effects
from .model import Field, ProgramSpec, Record
from .odo import resolve_counters
from .operands import Program, flow_units
from .procedure import parse_procedure
from .storage import readable_entries

__all__ = ["TOOL_NAME", "by_value_refusal", "entry_symbol", "parse_program", "parse_programs"]

TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def entry_symbol(name: str) -> str:
    """GnuCOBOL's C name for a program: '-' -> '__', other non [A-Za-z0-9_] -> '_XX' hex, leading digit '_'."""
    out = "_" if name[:1].isdigit() else ""
    for ch in name:
        if ch.isascii() and (ch.isalnum() or ch == "_"):
            out += ch
        elif ch == "-":
            out += "__"
        else:
            out += "".join(f"_{b:02X}" for b in ch.encode("utf-8"))
    return out


def parse_program(
    path: Path, source_format: str | None = None, include: Iterable[Path] = (), dialect: str | None = None
) -> ProgramSpec:
    """Read a COBOL source (and its copybooks; ``include``: more copybook folders) and derive the tool's
    name, description and records, laid out as ``cobc -std=dialect`` lays them out (DialectError for a
    dialect that cannot be used). A file of several programs gives its first: see :func:`parse_programs`."""
    first = parse_programs(path, source_format, include, dialect)[0]
    if isinstance(first, LinkageError):
        raise first
    return first


def parse_programs(
    path: Path,
    source_format: str | None = None,
    include: Iterable[Path] = (),
    dialect: str | None = None,
    columns: int = 72,
    effects: Effects | None = None,
) -> list[ProgramSpec | LinkageError]:
    """Every outermost program of a source file, in order (one, usually: :mod:`..source.units`), each
    derived as :func:`parse_program` says, or the error that keeps it from being a tool. Programs nested in
    another stay internal. LinkageError for a file that cannot be read at all. ``columns``: where its
    fixed-format code ends (255 for a translation compiled with ``-ftext-column=255``). ``effects``: filled
    with what the first program does to each byte of its USING records (see :mod:`.linked`)."""
    path = Path(path)
    lines, fmt, books = load(path, source_format, include, columns)
    units = program_units(lines)
    if len(units) <= 1:
        return list(_parse_unit(path, lines, fmt, books, dialect, effects))
    found: list[ProgramSpec | LinkageError] = []
    for n, unit in enumerate(units):
        try:
            found += _parse_unit(path, unit.lines(lines), fmt, books, dialect, None if n else effects)
        except LinkageError as exc:
            found.append(exc)
    return found


def _parse_unit(
    path: Path, lines: list[Line], fmt: str, books: list[Path], dialect: str | None, effects: Effects | None = None
) -> list[ProgramSpec]:
    """The program of these lines, then one spec for each of its ENTRY points."""
    p = Parser(lines)
    p.dialect = load_dialect(dialect)
    i = p.find("PROGRAM-ID")
    if i < 0:
        raise LinkageError(f"{path}:1: no PROGRAM-ID paragraph")
    k = i + 1 + (i + 1 < len(p.toks) and p.toks[i + 1].kind == "period")
    if k >= len(p.toks) or p.toks[k].kind == "period":
        raise LinkageError(f"{p.where(p.toks[i])}: PROGRAM-ID without a name")
    program_id = external = p.toks[k].text
    end = k
    while end + 1 < len(p.toks) and p.toks[end + 1].kind != "period" and p.toks[end + 1].up not in HEADERS:
        end += 1
        t = p.toks[end]
        if t.up == "AS" and end + 1 < len(p.toks) and p.toks[end + 1].kind == "lit":
            external = p.toks[end + 1].text
            end += 1
        elif t.up not in ("IS", "INITIAL", "COMMON", "RECURSIVE", "PROGRAM"):
            raise LinkageError(f"{p.where(t)}: unexpected {t.text!r} in PROGRAM-ID paragraph")
    closed = end + 1 < len(p.toks) and p.toks[end + 1].kind == "period"  # (the period may be missing)
    end_line = p.toks[end + closed].line
    tool_name = program_id.lower().replace("-", "_")
    if not TOOL_NAME.match(tool_name):
        raise LinkageError(f"{p.where(p.toks[k])}: PROGRAM-ID {program_id!r} gives tool name {tool_name!r}, "
                           "which does not match ^[A-Za-z0-9_.-]{1,64}$")  # fmt: skip
    j = p.find("DECIMAL-POINT")
    if j >= 0:
        k = j + 1 + (j + 1 < len(p.toks) and p.toks[j + 1].up == "IS")
        if k >= len(p.toks) or p.toks[k].up != "COMMA":
            raise LinkageError(f"{p.where(p.toks[j])}: DECIMAL-POINT must be followed by IS COMMA")
        p.decimal_comma = True  # edited PICTUREs and numeric VALUEs read "," as the point
    j = p.find("CURRENCY")
    if j >= 0:
        raise LinkageError(f"{p.where(p.toks[j])}: CURRENCY in SPECIAL-NAMES is not supported")
    proc = p.find("PROCEDURE", "DIVISION")
    stop = proc if proc >= 0 else len(p.toks)
    records: dict[str, Field] = {}
    broken: dict[str, str] = {}
    start = p.find("LINKAGE", "SECTION")
    if 0 <= start < stop:
        first = start + 2 + (start + 2 < stop and p.toks[start + 2].kind == "period")
        last = next((j for j in range(first, stop) if p.toks[j].up == "SECTION" and j > first), stop)
        if last < stop:  # back up to the section name before "SECTION"
            last -= 1
        entries, broken = readable_entries(p, first, last)  # a record no call passes may be unreadable
        for e in nest(entries, p):
            try:
                records[e.name.upper()] = build_record(p, e)
            except LinkageError as exc:
                broken[e.name.upper()] = str(exc)
    using = _using(p, proc) if proc >= 0 else []
    result: list[Record] = []
    for tok, by_value in using:
        if tok.text.upper() in broken:
            raise LinkageError(broken[tok.text.upper()])
        f = records.get(tok.text.upper())
        if f is None or f.key is None:
            raise LinkageError(f"{p.where(tok)}: USING {tok.text}: no such 01/77 record in LINKAGE SECTION")
        if any(r.key == f.key for r in result):
            raise LinkageError(f"{p.where(tok)}: USING {tok.text} appears twice")
        if by_value and (why := by_value_refusal(f)):
            raise LinkageError(f"{p.where(tok)}: USING BY VALUE {tok.text} {why}")
        result.append(Record(f.name, f.key, name_direction(f.key), f, f.size, by_value=by_value))
    keys = [r.key for r in result]
    try:
        flow = parse_procedure(lines, tuple(result))
        found = directions(flow, keys)
        if effects is not None:
            effects.update(linked_effects(flow, result))
    except (LinkageError, RecursionError) as exc:  # unreadable or too deeply nested: the names decide
        why = str(exc) if isinstance(exc, LinkageError) else "PERFORMs nested too deeply"
        found = directions(
            Program(flow_units(tuple(result)), [], failure=f"the statements cannot be followed ({why})"), keys
        )
    result = [
        replace(r, field=redirect(r.field, "in", _BY_VALUE_IN), direction="in") if r.by_value else r
        for r in apply_directions(result, found)
    ]
    main = ProgramSpec(
        program_id=program_id, tool_name=tool_name, entry_symbol=entry_symbol(external),
        description=description_after(lines, end_line), records=resolve_counters(tuple(result)),
        source_format=fmt, source=path,
        copybooks=tuple(dict.fromkeys(books)), dialect=p.dialect.name,
    )  # fmt: skip
    return [main, *_entry_points(p, lines, records, main, broken)]


def _entry_points(
    p: Parser, lines: list[Line], records: dict[str, Field], main: ProgramSpec, broken: dict[str, str]
) -> list[ProgramSpec]:
    """``ENTRY 'NAME' [USING ...]`` in the PROCEDURE DIVISION: another way into the same program, and a
    tool of its own. Where each parameter goes is left to the names (the flow from an ENTRY is not
    followed); the comment block after the statement describes it."""
    try:
        toks = tokenize(lines, whole=True)
    except LinkageError:  # procedure text the tokenizer cannot read (the direction analysis says so too)
        return []
    combined = [r.name.upper() for r in main.records]  # the program's parameter list, ENTRY items added
    proc = next((i for i in range(len(toks) - 1) if toks[i].up == "PROCEDURE" and toks[i + 1].up == "DIVISION"), -1)
    specs: list[ProgramSpec] = []
    i = proc
    while 0 <= i < len(toks) - 1:
        i += 1
        if toks[i].up != "ENTRY" or toks[i + 1].kind != "lit":
            continue
        name_tok = toks[i + 1]
        name, where = name_tok.text, p.where(name_tok)
        tool = name.lower().replace("-", "_")
        if not TOOL_NAME.match(tool):
            raise LinkageError(
                f"{where}: ENTRY {name!r} gives tool name {tool!r}, which does not match {TOOL_NAME.pattern}"
            )
        i += 2
        params: list[Record] = []
        if i < len(toks) and toks[i].up == "USING":
            i += 1
            while i < len(toks) and toks[i].kind == "word":
                t = toks[i]
                if t.up == "BY" and i + 1 < len(toks) and toks[i + 1].up in ("VALUE", "CONTENT"):
                    raise LinkageError(f"{p.where(t)}: ENTRY {name} USING BY {toks[i + 1].text} {_ENTRY_BY_VALUE}")
                if t.up in broken:
                    raise LinkageError(broken[t.up])
                if t.up not in ("BY", "REFERENCE", "OPTIONAL"):
                    f = records.get(t.up)
                    if f is None or f.key is None:
                        break  # the next statement begins
                    if any(r.key == f.key for r in params):
                        raise LinkageError(f"{p.where(t)}: ENTRY {name} USING {t.text} appears twice")
                    params.append(Record(f.name, f.key, name_direction(f.key), f, f.size))
                    if f.name.upper() not in combined:
                        combined.append(f.name.upper())
                i += 1
        keys = [r.key for r in params]
        why = f"the flow from ENTRY {name} is not followed"
        found = directions(Program(flow_units(tuple(params)), [], failure=why), keys)
        text = description_after(lines, name_tok.line) or f"ENTRY {name} of COBOL program {main.program_id}."
        specs.append(replace(
            main, program_id=name, tool_name=tool, entry_symbol=entry_symbol(name), description=text,
            records=resolve_counters(tuple(apply_directions(params, found))),
            call_params=max((combined.index(r.name.upper()) + 1 for r in params), default=0),
        ))  # fmt: skip
    return specs


# Verified against cobc 3.1.2's generated C: a BY VALUE item is a C int argument of the entry
# (`int PROG (cob_u8_t *, cob_s32_t)`); the program's item is laid over that int, so only a native-endian
# binary integer of up to 4 bytes reads back the value its caller passed (a COBOL caller converts the item
# to an int). Such programs are called through a COBOL caller of their own (..prepare.value_caller).
_BY_VALUE_IN = "passed BY VALUE: the program works on its own copy, the caller's is never changed"
_BY_VALUE_FORMS = "only an elementary native binary integer of up to 4 bytes (USAGE BINARY-CHAR, BINARY-SHORT, "
_BY_VALUE_FORMS += "BINARY-LONG [UNSIGNED], or PIC [S]9(1) to [S]9(9) COMP-5 without decimals) can be passed BY VALUE"
_ENTRY_BY_VALUE = (
    "is not supported for an ENTRY: its tool is called through the program's generic caller, which "
    "passes every parameter BY REFERENCE (BY VALUE is served on the PROCEDURE DIVISION USING only)"
)


def by_value_refusal(f: Field) -> str:
    """Why the item cannot be passed BY VALUE as cobc 3.1.2 passes it ('' when it can)."""
    if f.children or f.is_group:
        return f"is not supported: it is a group item; {_BY_VALUE_FORMS}"
    if f.occurs is not None:
        return f"is not supported: it has OCCURS; {_BY_VALUE_FORMS}"
    if f.usage in ("binary", "comp-x"):
        return (
            f"is not supported: USAGE {'BINARY (COMP)' if f.usage == 'binary' else 'COMP-X'} is stored big-endian "
            "while cobc 3.1.2 passes a BY VALUE item as a native C int that the program reads with its bytes "
            "swapped; declare it COMP-5 or BINARY-LONG"
        )
    if f.usage != "comp-5" or f.native.startswith(("COMP-", "INDEX")):
        return f"is not supported: USAGE {(f.native or f.usage).upper()}; {_BY_VALUE_FORMS}"
    if f.size > 4:
        return (
            f"is not supported: it is {f.size} bytes while cobc 3.1.2 passes a BY VALUE item as a 4-byte C int "
            f"(the program would read past it); {_BY_VALUE_FORMS}"
        )
    if f.scale:
        return f"is not supported: it has decimal places; {_BY_VALUE_FORMS}"
    return ""


_NOT_PASSED = {
    "RETURNING": "is not supported: GnuCOBOL 3.1.2 does not implement program RETURNING (the item gets "
    "no storage and the entry returns RETURN-CODE); return the value in a USING record",
    "CHAINING": "is not supported: CHAINING takes command-line arguments, tools pass records",
}


def _using(p: Parser, proc: int) -> list[tuple[Tok, bool]]:
    """The USING names, each with whether it is passed BY VALUE (``BY`` is optional; a mode holds until
    the next one)."""
    toks = p.toks
    i = proc + 2
    if i >= len(toks) or toks[i].up != "USING":
        return []
    names: list[tuple[Tok, bool]] = []
    by_value = False
    i += 1
    while i < len(toks) and toks[i].kind != "period":
        t = toks[i]
        if t.up == "CONTENT":
            raise LinkageError(f"{p.where(t)}: USING BY CONTENT is not supported: a CALL passes BY CONTENT, "
                               "a program receives BY REFERENCE or BY VALUE")  # fmt: skip
        if t.up in _NOT_PASSED:
            raise LinkageError(f"{p.where(t)}: PROCEDURE DIVISION {t.text} {_NOT_PASSED[t.up]}")
        if t.up in ("VALUE", "REFERENCE"):
            by_value = t.up == "VALUE"
        elif t.up not in ("BY", "OPTIONAL"):
            names.append((t, by_value))
        i += 1
    return names
