"""Checking a derived layout against the one GnuCOBOL itself generates."""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..linkage.model import Field, Record
from ..linkage.odo import tables
from ..linkage.program import parse_program
from .cobc import Prepared

__all__ = ["verify_with_cobc"]

_DUMP = re.compile(
    r'cob_dump_field_ext\s*\(\s*(\d+),\s*"([^"]*)",\s*COB_SET_FLD\s*\(f0,\s*(.+?),\s*(NULL|b_\d+)'
    r"(?:\s*\+\s*(\d+))?,\s*&(a_\d+)\)"
)
# A record ending in an OCCURS DEPENDING ON table: "fixed + item * (counter)" or "item * (counter)".
_ODO_SIZE = re.compile(r"(?:(\d+)\s*\+\s*)?(\d+)\s*\*")
_ATTR = re.compile(r"(a_\d+)\s*=\s*\{(0x[0-9a-fA-F]+),\s*(-?\d+),\s*(-?\d+),\s*(0x[0-9a-fA-F]+)")
_TYPES = {"comp-3": 0x12, "comp-6": 0x12, "binary": 0x11, "comp-5": 0x11, "comp-1": 0x13, "comp-2": 0x14}


def _walk(f: Field, path: str = "") -> Iterator[tuple[str, Field]]:
    path = f"{path}.{f.name}" if path else f.name
    yield path, f
    for c in f.children:
        if c.redefines is None:  # cobc dumps the first definition only
            yield from _walk(c, path)


def _cobc_type(f: Field) -> int:
    if f.is_group:
        return 0x01
    if f.native == "INDEX":
        return 0x1B  # cobc's COMP-5 type
    if f.category == "pointer":
        return 0x11  # an address: cobc's binary type
    if f.category == "numeric":
        return (0x24 if f.blank_when_zero else 0x10) if f.usage == "display" else _TYPES[f.usage]
    if f.category == "float":
        return _TYPES[f.usage]
    return {"numeric-edited": 0x24, "alphanumeric-edited": 0x23, "national": 0x40}.get(f.category, 0x21)


def _facts(f: Field) -> dict[str, object]:
    facts: dict[str, object] = {"name": f.name.upper(), "level": f.level, "size": f.size, "offset": f.offset}
    facts["type"] = hex(_cobc_type(f))
    if f.category == "numeric":
        facts |= {"digits": f.digits, "scale": f.scale, "signed": f.signed}
        facts |= {"separate sign": f.sign_separate, "leading sign": f.sign_leading}
        if f.usage in ("binary", "comp-5"):
            facts["native binary"] = f.usage == "comp-5"
    if f.category == "numeric-edited":
        facts["scale"] = f.scale  # where the decimal point is (a comma with DECIMAL-POINT IS COMMA)
    if f.category in ("alphanumeric", "alphabetic", "national"):
        facts["justified"] = f.justified
    return facts


def _cobc_facts(level: int, name: str, size: int, offset: int, attr: tuple[int, ...]) -> dict[str, object]:
    kind, digits, scale, flags = attr
    facts: dict[str, object] = {"name": name.upper(), "level": level, "size": size, "offset": offset}
    facts |= {"type": hex(kind), "digits": digits, "scale": scale, "signed": bool(flags & 0x01)}
    facts |= {"separate sign": bool(flags & 0x02), "leading sign": bool(flags & 0x04)}
    return facts | {"justified": bool(flags & 0x10), "native binary": bool(flags & 0x40)}


def _size(text: str, records: tuple[Record, ...], name: str) -> int:
    """cobc's size of an item; a record's variable size is taken at its table's maximum."""
    if text.isdigit():
        return int(text)
    m = _ODO_SIZE.match(text)
    record = next((r for r in records if r.name.upper() == name.upper()), None)
    table = next(tables(record.field), None) if record else None
    if m is None or table is None:
        return -1
    return int(m.group(1) or 0) + int(m.group(2)) * (table.occurs or 0)


def verify_with_cobc(
    source_path: Path, source_format: str | None = None, cobc: str = "cobc", dialect: str | None = None
) -> list[str]:
    """Compare the derived layout with the one GnuCOBOL generates; return human-readable mismatches.

    ``cobc -C -fdump=LS`` emits a dump call for every LINKAGE item with its level, size, offset and
    attribute (type, digits, scale, sign/justify flags), which is the compiler's own layout.
    """
    spec = parse_program(source_path, source_format, dialect=dialect)
    src = Path(source_path).resolve()
    with tempfile.TemporaryDirectory(prefix="cobol-mcp-verify-") as tmp:
        out = Path(tmp) / "prog.c"
        given = Prepared(src, spec.source_format, (), Path(tmp))  # the source as the build gives it to cobc
        std = [f"-std={spec.dialect}"] if spec.dialect != "default" else []
        cmd = [cobc, "-C", f"-{spec.source_format}", *std, "-fdump=LS", *given.flags, *given.include_flags(),
               "-o", str(out), str(given.source)]  # fmt: skip
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return [f"cannot run cobc: {exc}"]
        if proc.returncode != 0:
            return [f"cobc failed: {(proc.stderr or proc.stdout).strip()}"]
        code = out.read_text(errors="replace")
        headers = "".join(p.read_text(errors="replace") for p in Path(tmp).glob("prog.c*.h"))
    attrs = {m.group(1): tuple(int(g, 0) for g in m.groups()[1:]) for m in _ATTR.finditer(headers)}
    dumped: dict[str, list[tuple[int, str, int, int, tuple[int, ...]]]] = {}
    current: list[tuple[int, str, int, int, tuple[int, ...]]] | None = None
    for m in _DUMP.finditer(code.split("END OF DUMP")[0]):
        level, name, size, base, off, attr = m.groups()
        if base == "NULL":
            continue
        if int(level) in (1, 77):
            current = dumped.setdefault(name.upper(), [])
            current.clear()
        if current is not None:
            current.append((int(level), name, _size(size, spec.records, name), int(off or 0),
                            attrs.get(attr, (0, 0, 0, 0))))  # fmt: skip
    problems: list[str] = []
    for rec in spec.records:
        if rec.field.any_length:  # its size is the calling item's: cobc's one byte is no layout to compare
            continue
        theirs = dumped.get(rec.name.upper())
        if theirs is None:
            problems.append(f"{rec.name}: cobc reported no layout for this record")
            continue
        ours = list(_walk(rec.field))
        if len(ours) != len(theirs):
            problems.append(f"{rec.name}: {len(ours)} items derived, cobc has {len(theirs)}")
        for (path, f), (level, name, size, off, attr) in zip(ours, theirs, strict=False):
            derived, compiled = _facts(f), _cobc_facts(level, name, size, off, attr)
            problems += [
                f"{path}: {what} {value!r} derived, cobc has {compiled[what]!r}"
                for what, value in derived.items()
                if value != compiled[what]
            ]
    return problems
